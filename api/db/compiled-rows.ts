/**
 * A prepared select's rows mapped by a function built once for its columns (decision 038, addendum 5).
 *
 * drizzle maps every row of a select through `mapResultRow`, which works out again for each cell what
 * kind of field it holds (`is(field, Column)`, `is(field, SQL)`…), walks the field's path with an
 * iterator, and builds the table's "all null" bookkeeping. On My courses' page (24 rows of about 20
 * columns) that was ~0.2 ms and ~100 KB of garbage per request. A statement built once per shape
 * (api/queries/aggregates.ts) can have its mapping worked out once too: this reads the prepared
 * query's ordered fields and left-join map and installs an equivalent mapper as the query's
 * `customResultMapper`, the hook drizzle's own relational queries use. Both drivers (node-postgres and
 * PGlite) read rows in array mode and call that hook the same way.
 *
 * The result is the one drizzle gives, to the same nesting and the same nulls: each value goes through
 * its column's `mapFromDriverValue`, and a joined table's object is `null` when drizzle would make it
 * null — its first column is null, all its columns come from that table, and the join may miss.
 * `compiled-rows.test.ts` beside this file compares the two on left joins that hit and miss. A query whose
 * internals do not look as expected (another drizzle version) is left to drizzle's own mapping.
 */
import { Column, getTableName, is, SQL, Subquery } from "drizzle-orm";

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}
interface OrderedField {
  path: string[];
  field: unknown;
}
interface PreparedInternals {
  fields?: OrderedField[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}

function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field as unknown as Decoder;
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: { decoder: Decoder } } })._.sql.decoder;
  return (field as { sql: { decoder: Decoder } }).sql.decoder;
}

/**
 * The mapper of one prepared select's rows, or null when its fields are not drizzle's ordered list
 * of `{ path, field }`.
 */
export function compileRowMapper(prepared: unknown): ((rows: unknown[][]) => Record<string, unknown>[]) | null {
  const internals = prepared as PreparedInternals;
  const fields = internals.fields;
  if (!Array.isArray(fields) || fields.some((f) => !Array.isArray(f?.path) || f.path.length === 0)) return null;
  const joins = internals.joinsNotNullableMap;
  const columns = fields.map(({ path, field }) => ({ path, decoder: decoderOf(field) }));
  // drizzle's rule (mapResultRow): an object of two-level paths is nulled when the first of its table
  // columns is null, every table column under it is of one table, and that table's join may miss.
  const nullable: { name: string; index: number }[] = [];
  if (joins) {
    const groups = new Map<string, { index: number; table: string | false }>();
    fields.forEach(({ path, field }, index) => {
      if (path.length !== 2 || !is(field, Column)) return;
      const table = getTableName((field as unknown as { table: Parameters<typeof getTableName>[0] }).table);
      const group = groups.get(path[0]!);
      if (!group) groups.set(path[0]!, { index, table });
      else if (group.table !== table) group.table = false;
    });
    for (const [name, { index, table }] of groups)
      if (typeof table === "string" && !joins[table]) nullable.push({ name, index });
  }
  const flat = columns.every((c) => c.path.length === 1);
  const twoLevel = columns.every((c) => c.path.length <= 2);
  return (rows) => {
    const out = new Array<Record<string, unknown>>(rows.length);
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      const result: Record<string, unknown> = {};
      for (let i = 0; i < columns.length; i++) {
        const { path, decoder } = columns[i]!;
        const raw = row[i];
        const value = raw === null ? null : decoder.mapFromDriverValue(raw);
        if (flat) {
          result[path[0]!] = value;
          continue;
        }
        let node = result;
        const last = path.length - 1;
        if (twoLevel && last === 1) {
          node = (result[path[0]!] ??= {}) as Record<string, unknown>;
        } else {
          for (let p = 0; p < last; p++) node = (node[path[p]!] ??= {}) as Record<string, unknown>;
        }
        node[path[last]!] = value;
      }
      for (const { name, index } of nullable) if (row[index] === null) result[name] = null;
      out[r] = result;
    }
    return out;
  };
}

/** The prepared select with its rows mapped by `compileRowMapper` (left as it is when that cannot). */
export function withCompiledRows<T>(prepared: T): T {
  const internals = prepared as PreparedInternals;
  if (internals.customResultMapper) return prepared;
  const mapper = compileRowMapper(prepared);
  if (mapper) internals.customResultMapper = mapper;
  return prepared;
}
