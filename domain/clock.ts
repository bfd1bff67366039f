/**
 * Spec 9: the clock (e.g. the calendar's "now" marker) refreshes every 60 s. A module of its own so
 * the browser can import it without the calendar rules (and their libraries) behind it.
 */
export const CLOCK_REFRESH_MS = 60_000;
