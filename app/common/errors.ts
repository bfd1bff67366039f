/** The 404 of an activity id that the course does not have (the error page says so in its own words). */
/** Marks a 404 as the activity variant of spec 2.10 ('Activity not found'). */
export const ACTIVITY_NOT_FOUND = "activity-not-found";

/**
 * Marks a 403 as "no account here" (decision 049): an external provider signed the person in, but the
 * LMS has no account for her and makes none (the API's `accountNotProvisioned`). A page, not a 401:
 * a 401 would send her back to the provider, which sends her back here — the redirect loop of issue 50.
 */
export const NO_ACCOUNT = "no-account";
