/**
 * SCORM time values: the 2004 timeinterval (ISO 8601 duration, RTE 4.1.1.7)
 * and the 1.2 CMITimespan (RTE 3.4.2), read strictly — the server validates what a SCO sends without
 * trusting the run-time library in the browser — and the total time the LMS keeps, in centiseconds
 * (both formats are precise to 0.01 s).
 */
/** The two SCORM versions ("2004" covers the 3rd and 4th edition); the same union as domain/scorm.ts. */
type ScormVersion = "1.2" | "2004";

/**
 * P[nY][nM][nD][T[nH][nM][n[.n]S]]: at least one part, a T only before a time part, at most two
 * decimals of a second (the reference implementation's DurationValidator, SCORM 2004 4th edition).
 */
const INTERVAL = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d{1,2}))?S)?)?$/;
/** HHHH:MM:SS.SS — two to four digits of hours, two of minutes and seconds, up to two decimals (1.2 RTE 3.4.2.1.7). */
const TIMESPAN = /^(\d{2,4}):(\d{2}):(\d{2})(?:\.(\d{1,2}))?$/;

/** Seconds of a year and a month as ADL's reference implementation counts them (DMTimeUtility). */
const YEAR = 31_536_000;
const MONTH = 2_628_029;

const centis = (fraction: string | undefined) => (fraction ? Number(fraction.padEnd(2, "0")) : 0);

/** A 2004 timeinterval in centiseconds; null when it is not one ("P1Y6M14DT", "PT", "P", "PT1.234S"). */
export function intervalCentis(value: string): number | null {
  const m = INTERVAL.exec(value);
  if (!m || value.endsWith("T") || value === "P") return null;
  const [, y, mo, d, h, mi, s, f] = m;
  const n = (x: string | undefined) => Number(x ?? 0);
  const seconds = n(y) * YEAR + n(mo) * MONTH + n(d) * 86_400 + n(h) * 3600 + n(mi) * 60 + n(s);
  return seconds * 100 + centis(f);
}

/** A 1.2 CMITimespan in centiseconds; null when it is not one. */
export function timespanCentis(value: string): number | null {
  const m = TIMESPAN.exec(value);
  if (!m) return null;
  const [, h, mi, s, f] = m;
  if (Number(mi) > 59 || Number(s) > 59) return null;
  return (Number(h) * 3600 + Number(mi) * 60 + Number(s)) * 100 + centis(f);
}

/** A session time of either version in centiseconds (null: not a valid value of that version). */
export function sessionCentis(version: ScormVersion, value: string): number | null {
  return version === "1.2" ? timespanCentis(value) : intervalCentis(value);
}

/** Centiseconds as a 2004 timeinterval: days, hours, minutes, seconds ("PT0S" for nothing). */
export function formatInterval(total: number): string {
  const cs = Math.max(0, Math.round(total));
  const days = Math.floor(cs / 8_640_000);
  const hours = Math.floor((cs % 8_640_000) / 360_000);
  const minutes = Math.floor((cs % 360_000) / 6000);
  const seconds = Math.floor((cs % 6000) / 100);
  const fraction = cs % 100;
  let out = "P";
  if (days) out += `${days}D`;
  if (hours || minutes || seconds || fraction || !days) out += "T";
  if (hours) out += `${hours}H`;
  if (minutes) out += `${minutes}M`;
  if (seconds || fraction || (!days && !hours && !minutes))
    out += fraction ? `${seconds}.${String(fraction).padStart(2, "0")}S` : `${seconds}S`;
  return out;
}

/** Centiseconds as a 1.2 CMITimespan, "HHHH:MM:SS.SS" (hours beyond 9999 are capped at 9999:59:59.99). */
export function formatTimespan(total: number): string {
  const cs = Math.min(Math.max(0, Math.round(total)), 9999 * 360_000 + 359_999);
  const hours = Math.floor(cs / 360_000);
  const minutes = Math.floor((cs % 360_000) / 6000);
  const seconds = Math.floor((cs % 6000) / 100);
  const fraction = cs % 100;
  const two = (n: number) => String(n).padStart(2, "0");
  return `${String(hours).padStart(4, "0")}:${two(minutes)}:${two(seconds)}.${two(fraction)}`;
}

/** The total time as the version writes it (cmi.total_time / cmi.core.total_time). */
export function formatTotalTime(version: ScormVersion, total: number): string {
  return version === "1.2" ? formatTimespan(total) : formatInterval(total);
}
