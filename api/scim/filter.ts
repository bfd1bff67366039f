/**
 * A SCIM filter (RFC 7644 §3.4.2.2) as one SQL condition. The grammar is scim2-parse-filter's; this module
 * only maps the attributes a resource can be filtered by to its columns — an attribute it does not know,
 * an operator its column cannot take, or a filter that does not parse is `invalidFilter` (400).
 */
import { and, not, or, sql, type SQL } from "drizzle-orm";
import { parse, type Filter } from "scim2-parse-filter";
import { ScimError } from "./errors";

/** A filterable attribute: text (caseExact or not), a boolean condition, or one that only answers `eq`. */
export type FilterColumn =
  | { kind: "text"; sql: SQL; caseExact?: boolean }
  | { kind: "bool"; sql: SQL }
  | { kind: "eqOnly"; eq: (value: string) => SQL };

type Value = boolean | null | number | string;

const invalid = (detail: string) => new ScimError(400, detail, "invalidFilter");
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** `urn:ietf:params:scim:schemas:core:2.0:User:userName` → `username` (attribute names are case-insensitive). */
function attributeKey(path: string): string {
  const colon = path.lastIndexOf(":");
  return (colon >= 0 && path.startsWith("urn:") ? path.slice(colon + 1) : path).toLowerCase();
}

function compare(column: FilterColumn, op: string, value: Value, path: string): SQL {
  if (column.kind === "eqOnly") {
    if (op !== "eq" || typeof value !== "string") throw invalid(`${path} can only be compared with eq "…"`);
    return column.eq(value);
  }
  if (column.kind === "bool") {
    if (typeof value !== "boolean" || (op !== "eq" && op !== "ne"))
      throw invalid(`${path} is compared with eq true|false`);
    return op === "eq" ? sql`(${column.sql}) = ${value}` : sql`(${column.sql}) <> ${value}`;
  }
  if (typeof value !== "string") throw invalid(`${path} is compared with a string`);
  const left = column.caseExact ? column.sql : sql`lower(${column.sql})`;
  const right = column.caseExact ? value : value.toLowerCase();
  switch (op) {
    case "eq":
      return sql`${left} = ${right}`;
    case "ne":
      return sql`${left} is distinct from ${right}`;
    case "co":
      return sql`${left} like ${`%${likeEscape(right)}%`}`;
    case "sw":
      return sql`${left} like ${`${likeEscape(right)}%`}`;
    case "ew":
      return sql`${left} like ${`%${likeEscape(right)}`}`;
    case "gt":
      return sql`${left} > ${right}`;
    case "ge":
      return sql`${left} >= ${right}`;
    case "lt":
      return sql`${left} < ${right}`;
    case "le":
      return sql`${left} <= ${right}`;
    default:
      throw invalid(`Unknown operator ${op}`);
  }
}

function compile(f: Filter, columns: Record<string, FilterColumn>, prefix: string): SQL {
  switch (f.op) {
    case "and":
    case "or": {
      const parts = f.filters.map((g) => compile(g, columns, prefix));
      return (f.op === "and" ? and(...parts) : or(...parts))!;
    }
    case "not":
      return not(compile(f.filter, columns, prefix));
    case "[]":
      return compile(f.valFilter, columns, `${attributeKey(f.attrPath)}.`);
    default: {
      const path = prefix + attributeKey(f.attrPath);
      const column = columns[path];
      if (!column) throw invalid(`Filtering by ${f.attrPath} is not supported`);
      if (f.op === "pr") {
        if (column.kind !== "text") throw invalid(`${f.attrPath} pr is not supported`);
        return sql`coalesce(${column.sql}, '') <> ''`;
      }
      return compare(column, f.op, f.compValue, f.attrPath);
    }
  }
}

/** The filter as a condition on the resource's columns; `undefined` without a filter. */
export function filterSql(filter: string | undefined, columns: Record<string, FilterColumn>): SQL | undefined {
  if (filter === undefined || filter.trim() === "") return undefined;
  if (filter.length > 2000) throw invalid("The filter is too long");
  let ast: Filter;
  try {
    ast = parse(filter);
  } catch (err) {
    throw invalid(`The filter does not parse: ${(err as Error).message}`);
  }
  return compile(ast, columns, "");
}
