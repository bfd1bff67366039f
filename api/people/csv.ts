/**
 * Issue 50 item 3 (decision 049): the people and enrolment CSV files an HR system or a spreadsheet exports,
 * read with csv-parse (RFC 4180: quoted fields, commas and line breaks inside quotes, a BOM) and checked
 * row by row. Every problem names the file's line, so a file with mistakes is answered with the list of
 * them and nothing is written.
 */
import { CsvError, parse } from "csv-parse/sync";
import { ROLES, type Role } from "../../domain/vocabulary";
import { isSupportedLocale } from "../../domain/locales";

export interface RowProblem {
  line: number;
  column?: string;
  message: string;
}

export interface UserRow {
  line: number;
  email: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  locale: string | null;
  timezone: string | null;
  /** null: the column is empty — an existing account keeps its roles, a new one is a Learner. */
  roles: Role[] | null;
  /** null: the column is empty — an existing account keeps its units. The first is the primary one. */
  units: string[] | null;
  externalId: string | null;
}

export interface EnrolmentRow {
  line: number;
  courseCode: string;
  email: string | null;
  externalId: string | null;
  mandatory: boolean;
  retake: boolean;
  dueDate: Date | null;
  availabilityDate: Date | null;
  availabilityEndDate: Date | null;
  term: string | null;
}

const USER_COLUMNS = [
  "email",
  "first_name",
  "middle_name",
  "last_name",
  "locale",
  "time_zone",
  "roles",
  "units",
  "external_id",
] as const;
const ENROLMENT_COLUMNS = [
  "course_code",
  "email",
  "external_id",
  "mandatory",
  "due_date",
  "availability_date",
  "availability_end_date",
  "term",
  "retake",
] as const;

const REQUIRED_USER = ["email", "first_name", "last_name"];
const REQUIRED_ENROLMENT = ["course_code"];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The most rows one file may have (a bigger organisation splits its file). */
const MAX_ROWS = 50_000;

type CsvKind = "users" | "enrolments";

type Parsed = { kind: CsvKind; records: { line: number; values: Record<string, string> }[] };

/** The file's kind (by its header) and its records with their line numbers, or the problems that stop it. */
export function readCsv(text: string): Parsed | { problems: RowProblem[] } {
  let rows: { record: Record<string, string>; info: { lines: number } }[];
  let header: string[] = [];
  try {
    rows = parse(text, {
      bom: true,
      columns: (names: string[]) => (header = names.map((n) => n.trim().toLowerCase())),
      info: true,
      skip_empty_lines: true,
      trim: true,
      max_record_size: 64 * 1024,
      to: MAX_ROWS + 1,
    }) as typeof rows;
  } catch (err) {
    if (err instanceof CsvError)
      return { problems: [{ line: Number((err as CsvError & { lines?: number }).lines ?? 1), message: err.message }] };
    throw err;
  }
  const kind: CsvKind | null = header.includes("course_code")
    ? "enrolments"
    : header.includes("email")
      ? "users"
      : null;
  if (!kind)
    return {
      problems: [
        {
          line: 1,
          message: `The header names neither a people file (${USER_COLUMNS.join(",")}) nor an enrolments file (${ENROLMENT_COLUMNS.join(",")}).`,
        },
      ],
    };
  const known: readonly string[] = kind === "users" ? USER_COLUMNS : ENROLMENT_COLUMNS;
  const problems: RowProblem[] = [];
  for (const name of header)
    if (!known.includes(name)) problems.push({ line: 1, column: name, message: `Unknown column "${name}".` });
  for (const name of kind === "users" ? REQUIRED_USER : REQUIRED_ENROLMENT)
    if (!header.includes(name)) problems.push({ line: 1, column: name, message: `The column "${name}" is missing.` });
  if (kind === "enrolments" && !header.includes("email") && !header.includes("external_id"))
    problems.push({ line: 1, message: 'An enrolments file needs an "email" or an "external_id" column.' });
  if (rows.length > MAX_ROWS) problems.push({ line: 1, message: `More than ${MAX_ROWS} rows: split the file.` });
  if (problems.length) return { problems };
  return { kind, records: rows.map((r) => ({ line: r.info.lines, values: r.record })) };
}

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const list = (value: string | undefined) =>
  (value ?? "")
    .split(/[;|]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** People rows: each checked on its own, then the file as a whole (an address or external id twice). */
export function checkUsers(records: Parsed["records"]): { rows: UserRow[]; problems: RowProblem[] } {
  const rows: UserRow[] = [];
  const problems: RowProblem[] = [];
  const seenEmail = new Map<string, number>();
  const seenExternal = new Map<string, number>();
  for (const { line, values: v } of records) {
    const problem = (column: string, message: string) => problems.push({ line, column, message });
    const before = problems.length;
    const email = (v.email ?? "").toLowerCase();
    if (!email) problem("email", "The e-mail address is required.");
    else if (email.length > 254 || !EMAIL.test(email)) problem("email", `"${v.email}" is not an e-mail address.`);
    const firstName = v.first_name ?? "";
    const lastName = v.last_name ?? "";
    if (!firstName) problem("first_name", "The first name is required.");
    if (!lastName) problem("last_name", "The last name is required.");
    for (const [column, value] of [
      ["first_name", firstName],
      ["middle_name", v.middle_name ?? ""],
      ["last_name", lastName],
    ] as const)
      if (value.length > 100) problem(column, "At most 100 characters.");
    const locale = v.locale || null;
    if (locale && !isSupportedLocale(locale)) problem("locale", `"${locale}" is not one of the app's languages.`);
    const timezone = v.time_zone || null;
    if (timezone && !validTimeZone(timezone)) problem("time_zone", `"${timezone}" is not an IANA time zone.`);
    const roleNames = list(v.roles);
    const roles: Role[] = [];
    for (const name of roleNames) {
      const role = ROLES.find((r) => r.toLowerCase() === name.toLowerCase());
      if (role) roles.push(role);
      else problem("roles", `"${name}" is not a role (${ROLES.join(", ")}).`);
    }
    const units = list(v.units);
    if (units.some((u) => u.length > 200)) problem("units", "A unit's name has at most 200 characters.");
    const externalId = v.external_id || null;
    if (externalId && externalId.length > 200) problem("external_id", "At most 200 characters.");
    if (email && seenEmail.has(email)) problem("email", `The same address is on line ${seenEmail.get(email)}.`);
    else if (email) seenEmail.set(email, line);
    if (externalId && seenExternal.has(externalId))
      problem("external_id", `The same external id is on line ${seenExternal.get(externalId)}.`);
    else if (externalId) seenExternal.set(externalId, line);
    if (problems.length > before) continue;
    rows.push({
      line,
      email,
      firstName,
      middleName: v.middle_name || null,
      lastName,
      locale,
      timezone,
      roles: roleNames.length ? [...new Set(roles)] : null,
      units: units.length ? [...new Set(units)] : null,
      externalId,
    });
  }
  return { rows, problems };
}

const TRUE = new Set(["true", "yes", "y", "1", "x"]);
const FALSE = new Set(["false", "no", "n", "0", ""]);

/**
 * A date of the file: an ISO 8601 date (`2027-03-31`: the start of that day in UTC, or its end for a due
 * date or an end of availability) or a date and time with its offset (`2027-03-31T17:00:00+02:00`).
 */
function dateOf(value: string, endOfDay: boolean): Date | null | "invalid" {
  if (!value) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const d = new Date(`${value}T${endOfDay ? "23:59:59" : "00:00:00"}Z`);
    return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value ? "invalid" : d;
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? "invalid" : d;
  }
  return "invalid";
}

export function checkEnrolments(records: Parsed["records"]): { rows: EnrolmentRow[]; problems: RowProblem[] } {
  const rows: EnrolmentRow[] = [];
  const problems: RowProblem[] = [];
  const seen = new Map<string, number>();
  for (const { line, values: v } of records) {
    const problem = (column: string, message: string) => problems.push({ line, column, message });
    const before = problems.length;
    const courseCode = v.course_code ?? "";
    if (!courseCode) problem("course_code", "The course code is required.");
    const email = (v.email ?? "").toLowerCase() || null;
    const externalId = v.external_id || null;
    if (!email && !externalId) problem("email", "An e-mail address or an external id is required.");
    if (email && !EMAIL.test(email)) problem("email", `"${v.email}" is not an e-mail address.`);
    const flag = (column: "mandatory" | "retake") => {
      const raw = (v[column] ?? "").toLowerCase();
      if (TRUE.has(raw)) return true;
      if (!FALSE.has(raw)) problem(column, `"${v[column]}" is neither yes nor no.`);
      return false;
    };
    const mandatory = flag("mandatory");
    const retake = flag("retake");
    const dates = {
      dueDate: dateOf(v.due_date ?? "", true),
      availabilityDate: dateOf(v.availability_date ?? "", false),
      availabilityEndDate: dateOf(v.availability_end_date ?? "", true),
    };
    for (const [key, column] of [
      ["dueDate", "due_date"],
      ["availabilityDate", "availability_date"],
      ["availabilityEndDate", "availability_end_date"],
    ] as const)
      if (dates[key] === "invalid")
        problem(column, `"${v[column]}" is not a date (2027-03-31, or 2027-03-31T17:00:00+02:00).`);
    const { dueDate, availabilityDate, availabilityEndDate } = dates;
    if (
      availabilityDate instanceof Date &&
      availabilityEndDate instanceof Date &&
      availabilityEndDate < availabilityDate
    )
      problem("availability_end_date", "The end of availability is before its start.");
    const term = v.term || null;
    if (term && term.length > 200) problem("term", "At most 200 characters.");
    const key = `${courseCode}\n${email ?? ""}\n${externalId ?? ""}`;
    if (seen.has(key)) problem("course_code", `The same enrolment is on line ${seen.get(key)}.`);
    else seen.set(key, line);
    if (problems.length > before) continue;
    rows.push({
      line,
      courseCode,
      email,
      externalId,
      mandatory,
      retake,
      dueDate: dueDate as Date | null,
      availabilityDate: availabilityDate as Date | null,
      availabilityEndDate: availabilityEndDate as Date | null,
      term,
    });
  }
  return { rows, problems };
}
