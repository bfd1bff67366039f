/**
 * Time zones of the profile (spec 2.9 'Preferred time zone'): a zone's UTC offset at a given instant
 * and its "UTC+05:30" form. Pure: the instant is a parameter. The list itself (IANA's current names,
 * CLDR's data) is app/services/time-zones.server.ts.
 */

/** Minutes east of UTC of `zone` at `at`, from the zone's own wall clock. */
export function zoneOffsetMinutes(zone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"));
  const utc = Math.floor(at.getTime() / 1000) * 1000;
  return Math.round((wall - utc) / 60_000);
}

export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "\u2212" : "+";
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** A zone the runtime can format dates in (IANA names and their aliases). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
