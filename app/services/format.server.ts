/** Dates in the learner's locale and preferred time zone, formatted on the server (no hydration drift). */
/**
 * Dates in the learner's locale and time zone. Building an Intl.DateTimeFormat costs about a
 * millisecond, so formatters are kept per locale and zone for the life of the process (36 locales ×
 * the zones learners choose: a few hundred at most).
 */
export function dateFormatter(locale: string, timeZone: string | null | undefined) {
  const tz = timeZone && isTimeZone(timeZone) ? timeZone : "UTC";
  const key = `${locale}|${tz}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = createFormatter(locale, tz);
    formatters.set(key, formatter);
  }
  return formatter;
}

const formatters = new Map<string, ReturnType<typeof createFormatter>>();

function createFormatter(locale: string, tz: string) {
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: tz });
  // Spec 2.9: where a time is shown, the zone's name is too (the learner chose it on the profile).
  const dateTime = new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
    timeZone: tz,
  });
  const dateKey = `d|${locale}|${tz}|`;
  const dateTimeKey = `t|${locale}|${tz}|`;
  return {
    timeZone: tz,
    date: (iso: string | null | undefined) => (iso ? remembered(dateKey, iso, date) : null),
    dateTime: (iso: string | null | undefined) => (iso ? remembered(dateTimeKey, iso, dateTime) : null),
  };
}

/**
 * Formatted dates, remembered for the process: ICU takes a few microseconds per date, and a
 * learner's pages show the same dates on every visit (My courses: one per card, 24 a page). At most
 * `FORMATTED_MAX` entries (about a megabyte); a full map starts over.
 */
const formatted = new Map<string, string>();
export const FORMATTED_MAX = 5_000;

function remembered(prefix: string, iso: string, format: Intl.DateTimeFormat): string {
  const key = prefix + iso;
  let text = formatted.get(key);
  if (text === undefined) {
    text = format.format(new Date(iso));
    if (formatted.size >= FORMATTED_MAX) formatted.clear();
    formatted.set(key, text);
  }
  return text;
}

/** @internal For the table test: how many formatted dates are remembered. */
export function formattedDatesRemembered(): number {
  return formatted.size;
}
export type DateFormatter = ReturnType<typeof dateFormatter>;

const zones = new Map<string, boolean>();
function isTimeZone(tz: string): boolean {
  let valid = zones.get(tz);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: tz });
      valid = true;
    } catch {
      valid = false;
    }
    // Only known-good zones are remembered, so garbage cannot grow the map.
    if (valid) zones.set(tz, true);
  }
  return valid;
}
