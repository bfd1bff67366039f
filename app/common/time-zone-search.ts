// Issue 25 item 4: how the time-zone picker finds a zone — in the browser as the learner types.
import type { ZoneChoice } from "./views/time-zones";

/** Lower case, without accents, `_` and `/` as spaces: "São_Paulo" and "sao paulo" are the same words. */
export const foldSearch = (text: string) =>
  text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/[_/]/g, " ").trim();

/** "+05:30", "5:30", "utc-3", "GMT+5" → minutes (and whether a sign was given); else null. */
function offsetQuery(query: string): { minutes: number; signed: boolean } | null {
  const m = /^(?:utc|gmt)?\s*([+\-\u2212])?\s*(\d{1,2})(?::?(\d{2}))?$/.exec(query);
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return { minutes: m[1] && m[1] !== "+" ? -minutes : minutes, signed: Boolean(m[1]) };
}

/** Whether a zone is found by the query: by its words (city, country, zone names, ids) or its offset now. */
export function zoneMatches(zone: ZoneChoice, query: string): boolean {
  const q = foldSearch(query);
  if (!q) return true;
  const offset = offsetQuery(q.replace(/\s+/g, ""));
  if (offset)
    return offset.signed ? zone.offsetMinutes === offset.minutes : Math.abs(zone.offsetMinutes) === offset.minutes;
  // Every word typed begins a word of the zone's ("pago pago" is not Galápagos).
  const words = zone.search.split(/[\s,()]+/);
  return q.split(/\s+/).every((typed) => words.some((word) => word.startsWith(typed)));
}
