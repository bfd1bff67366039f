// Mappers turn table rows into the API's contract shapes; they run no SQL. This one: what every mapper shares.
import type { List } from "../../domain/contract/endpoints";

/** A timestamp column as the contract's ISO string (no date, null). */
export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** A list answer (spec 7.2): `totalCount` only when the query asked for it. */
export function toList<T>(data: T[], totalCount: number | null): List<T> {
  return { data, ...(totalCount !== null ? { totalCount } : {}) };
}
