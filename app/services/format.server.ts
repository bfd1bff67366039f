/** Dates in the learner's locale and preferred time zone, formatted on the server (no hydration drift). */
export function dateFormatter(locale: string, timeZone: string | null | undefined) {
  const tz = timeZone && isTimeZone(timeZone) ? timeZone : "UTC";
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: tz });
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: tz });
  return {
    timeZone: tz,
    date: (iso: string | null | undefined) => (iso ? date.format(new Date(iso)) : null),
    dateTime: (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : null),
  };
}
export type DateFormatter = ReturnType<typeof dateFormatter>;

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
