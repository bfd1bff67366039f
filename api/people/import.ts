/**
 * Issue 50 item 3 (decision 049): people and enrolments from CSV into the default tenant, in one
 * transaction. A dry run (the default) does everything and rolls back, so its report is exactly what
 * `--apply` would do; a file with any problem writes nothing. Importing the same file again changes
 * nothing (people are matched by external id, then by address; an enrolment by person and course).
 */
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import {
  licences,
  objectiveAccesses,
  objectives,
  objectiveWorkflowAggregates as owa,
  terms,
  userRoles,
  units,
  users,
  userUnits,
} from "../db/schema";
import { defaultTenantId } from "../settings";
import { checkEnrolments, checkUsers, readCsv, type RowProblem } from "./csv";

type RowOutcome = "created" | "updated" | "unchanged";

export interface PeopleReport {
  kind: "users" | "enrolments";
  applied: boolean;
  /** Nothing was written when there are problems. */
  problems: RowProblem[];
  rows: { line: number; key: string; outcome: RowOutcome }[];
  counts: Record<RowOutcome, number>;
  /** Units and terms the file named that did not exist: made. */
  made: { units: string[]; terms: string[] };
}

class DryRun extends Error {}

const counts = (rows: PeopleReport["rows"]) => ({
  created: rows.filter((r) => r.outcome === "created").length,
  updated: rows.filter((r) => r.outcome === "updated").length,
  unchanged: rows.filter((r) => r.outcome === "unchanged").length,
});

/** Runs `work` in a transaction that is kept only with `apply`. */
async function inTransaction<T>(db: Db, apply: boolean, work: (tx: Tx) => Promise<T>): Promise<T> {
  let result: T;
  try {
    await db.transaction(async (tx) => {
      result = await work(tx);
      if (!apply || (result as { problems?: unknown[] }).problems?.length) throw new DryRun();
    });
  } catch (err) {
    if (!(err instanceof DryRun)) throw err;
  }
  return result!;
}

/** Units by name in the tenant, the missing ones made. */
async function unitIds(tx: Tx, tenantId: string, names: string[], made: string[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  if (!names.length) return ids;
  const rows = await tx
    .select({ id: units.id, name: units.name })
    .from(units)
    .where(and(eq(units.tenantId, tenantId), inArray(units.name, names)));
  for (const r of rows) ids.set(r.name, r.id);
  const missing = names.filter((n) => !ids.has(n));
  if (missing.length) {
    const inserted = await tx
      .insert(units)
      .values(missing.map((name) => ({ tenantId, name })))
      .returning({ id: units.id, name: units.name });
    for (const r of inserted) ids.set(r.name, r.id);
    made.push(...missing);
  }
  return ids;
}

async function importUsers(tx: Tx, tenantId: string, records: Parameters<typeof checkUsers>[0]) {
  const { rows, problems } = checkUsers(records);
  const report: PeopleReport["rows"] = [];
  const made = { units: [] as string[], terms: [] as string[] };
  if (problems.length) return { problems, rows: report, made };
  // Everyone the file may name, in one query (by address or external id).
  const emails = rows.map((r) => r.email);
  const externals = rows.flatMap((r) => (r.externalId ? [r.externalId] : []));
  const existing = await tx
    .select()
    .from(users)
    .where(
      or(
        inArray(sql`lower(${users.email})`, emails),
        externals.length ? inArray(users.externalId, externals) : sql`false`,
      ),
    );
  const byEmail = new Map(existing.map((u) => [u.email.toLowerCase(), u]));
  const byExternal = new Map(existing.filter((u) => u.externalId).map((u) => [u.externalId!, u]));
  const ids = existing.map((u) => u.id);
  const [roleRows, unitRows] = ids.length
    ? await Promise.all([
        tx.select().from(userRoles).where(inArray(userRoles.userId, ids)),
        tx
          .select({ userId: userUnits.userId, name: units.name, isPrimary: userUnits.isPrimary })
          .from(userUnits)
          .innerJoin(units, eq(units.id, userUnits.unitId))
          .where(inArray(userUnits.userId, ids)),
      ])
    : [[], []];
  const unitsByName = await unitIds(tx, tenantId, [...new Set(rows.flatMap((r) => r.units ?? []))], made.units);
  for (const row of rows) {
    const problem = (column: string, message: string) => problems.push({ line: row.line, column, message });
    const found = (row.externalId && byExternal.get(row.externalId)) || byEmail.get(row.email);
    if (found && found.tenantId !== tenantId) {
      problem("email", "This person belongs to another tenant.");
      continue;
    }
    const other = byEmail.get(row.email);
    if (found && other && other.id !== found.id) {
      problem("email", `The address belongs to another person than external id "${row.externalId}".`);
      continue;
    }
    const values = {
      email: row.email,
      firstName: row.firstName,
      middleName: row.middleName,
      lastName: row.lastName,
      locale: row.locale,
      timezone: row.timezone,
      externalId: row.externalId ?? found?.externalId ?? null,
    };
    const roles = row.roles ?? (found ? null : ["Learner" as const]);
    const wantUnits = row.units;
    if (!found) {
      const [u] = await tx
        .insert(users)
        .values({ tenantId, ...values })
        .returning({ id: users.id });
      await tx.insert(userRoles).values(roles!.map((role) => ({ userId: u.id, role })));
      await tx.insert(licences).values({ userId: u.id, product: "LMS" });
      if (wantUnits?.length)
        await tx
          .insert(userUnits)
          .values(wantUnits.map((name, i) => ({ userId: u.id, unitId: unitsByName.get(name)!, isPrimary: i === 0 })));
      report.push({ line: row.line, key: row.email, outcome: "created" });
      continue;
    }
    let changed = (Object.keys(values) as (keyof typeof values)[]).some(
      (k) => (k === "email" ? found.email.toLowerCase() : found[k]) !== values[k],
    );
    if (changed) await tx.update(users).set(values).where(eq(users.id, found.id));
    const haveRoles = roleRows.filter((r) => r.userId === found.id).map((r) => r.role);
    if (roles && (roles.length !== haveRoles.length || roles.some((r) => !haveRoles.includes(r)))) {
      await tx.delete(userRoles).where(eq(userRoles.userId, found.id));
      await tx.insert(userRoles).values(roles.map((role) => ({ userId: found.id, role })));
      changed = true;
    }
    const haveUnits = unitRows.filter((r) => r.userId === found.id);
    const primary = haveUnits.find((u) => u.isPrimary)?.name;
    if (
      wantUnits &&
      (wantUnits.length !== haveUnits.length ||
        wantUnits.some((n) => !haveUnits.some((h) => h.name === n)) ||
        primary !== wantUnits[0])
    ) {
      await tx.delete(userUnits).where(eq(userUnits.userId, found.id));
      await tx
        .insert(userUnits)
        .values(wantUnits.map((name, i) => ({ userId: found.id, unitId: unitsByName.get(name)!, isPrimary: i === 0 })));
      changed = true;
    }
    report.push({ line: row.line, key: row.email, outcome: changed ? "updated" : "unchanged" });
  }
  return { problems, rows: report, made };
}

async function importEnrolments(tx: Tx, tenantId: string, records: Parameters<typeof checkEnrolments>[0]) {
  const { rows, problems } = checkEnrolments(records);
  const report: PeopleReport["rows"] = [];
  const made = { units: [] as string[], terms: [] as string[] };
  if (problems.length) return { problems, rows: report, made };
  const codes = [...new Set(rows.map((r) => r.courseCode))];
  const emails = rows.flatMap((r) => (r.email ? [r.email] : []));
  const externals = rows.flatMap((r) => (r.externalId ? [r.externalId] : []));
  const [courseRows, people, termRows] = await Promise.all([
    tx
      .select({ id: objectives.id, code: objectives.code })
      .from(objectives)
      .where(and(eq(objectives.tenantId, tenantId), inArray(objectives.code, codes))),
    tx
      .select({ id: users.id, email: users.email, externalId: users.externalId })
      .from(users)
      .where(
        and(
          eq(users.tenantId, tenantId),
          or(
            emails.length ? inArray(sql`lower(${users.email})`, emails) : sql`false`,
            externals.length ? inArray(users.externalId, externals) : sql`false`,
          ),
        ),
      ),
    tx.select({ id: terms.id, name: terms.name }).from(terms).where(eq(terms.tenantId, tenantId)),
  ]);
  const courseByCode = new Map<string, string[]>();
  for (const c of courseRows) courseByCode.set(c.code, [...(courseByCode.get(c.code) ?? []), c.id]);
  const termByName = new Map(termRows.map((t) => [t.name, t.id]));
  const resolved: { row: (typeof rows)[number]; userId: string; objectiveId: string }[] = [];
  for (const row of rows) {
    const problem = (column: string, message: string) => problems.push({ line: row.line, column, message });
    const course = courseByCode.get(row.courseCode);
    if (!course) problem("course_code", `No course has the code "${row.courseCode}".`);
    else if (course.length > 1) problem("course_code", `Several courses have the code "${row.courseCode}".`);
    const person =
      (row.externalId && people.find((p) => p.externalId === row.externalId)) ||
      (row.email && people.find((p) => p.email.toLowerCase() === row.email));
    if (!person)
      problem(
        row.externalId ? "external_id" : "email",
        `Nobody is ${row.externalId ?? row.email} (import the people first).`,
      );
    else if (row.email && row.externalId && person.email.toLowerCase() !== row.email)
      problem("email", `External id "${row.externalId}" is ${person.email}, not ${row.email}.`);
    if (course?.length === 1 && person) resolved.push({ row, userId: person.id, objectiveId: course[0] });
  }
  if (problems.length) return { problems, rows: report, made };
  const missingTerms = [...new Set(rows.flatMap((r) => (r.term && !termByName.has(r.term) ? [r.term] : [])))];
  if (missingTerms.length) {
    const inserted = await tx
      .insert(terms)
      .values(missingTerms.map((name) => ({ tenantId, name })))
      .returning({ id: terms.id, name: terms.name });
    for (const t of inserted) termByName.set(t.name, t.id);
    made.terms.push(...missingTerms);
  }
  // The learners' standing in these courses and their own assignments, in two queries.
  const userIds = [...new Set(resolved.map((r) => r.userId))];
  const objectiveIds = [...new Set(resolved.map((r) => r.objectiveId))];
  const [aggregates, assignments] = await Promise.all([
    tx
      .select()
      .from(owa)
      .where(and(inArray(owa.userId, userIds), inArray(owa.objectiveId, objectiveIds))),
    tx
      .select()
      .from(objectiveAccesses)
      .where(and(inArray(objectiveAccesses.userId, userIds), inArray(objectiveAccesses.objectiveId, objectiveIds))),
  ]);
  for (const { row, userId, objectiveId } of resolved) {
    const columns = {
      termId: row.term ? termByName.get(row.term)! : null,
      isMandatory: row.mandatory,
      retake: row.retake,
      dueDate: row.dueDate,
      availabilityDate: row.availabilityDate,
      availabilityEndDate: row.availabilityEndDate,
    };
    const key = `${row.courseCode} ${row.email ?? row.externalId}`;
    const same = (a: Record<string, unknown>) =>
      (Object.keys(columns) as (keyof typeof columns)[]).every((k) => {
        const x = a[k];
        const y = columns[k];
        return x instanceof Date && y instanceof Date ? x.getTime() === y.getTime() : x === y;
      });
    let access = assignments.find((a) => a.userId === userId && a.objectiveId === objectiveId);
    let accessChanged = false;
    if (!access) {
      [access] = await tx
        .insert(objectiveAccesses)
        .values({ tenantId, objectiveId, userId, ...columns })
        .returning();
      accessChanged = true;
    } else if (!same(access)) {
      await tx.update(objectiveAccesses).set(columns).where(eq(objectiveAccesses.id, access.id));
      accessChanged = true;
    }
    const aggregate = aggregates.find((a) => a.userId === userId && a.objectiveId === objectiveId);
    if (!aggregate) {
      await tx.insert(owa).values({ tenantId, userId, objectiveId, objectiveAccessId: access.id, ...columns });
      report.push({ line: row.line, key, outcome: "created" });
    } else if (!same(aggregate) || aggregate.objectiveAccessId !== access.id) {
      // Her progress stays: only the assignment's terms change.
      await tx
        .update(owa)
        .set({ ...columns, objectiveAccessId: access.id })
        .where(eq(owa.id, aggregate.id));
      report.push({ line: row.line, key, outcome: "updated" });
    } else report.push({ line: row.line, key, outcome: accessChanged ? "updated" : "unchanged" });
  }
  return { problems, rows: report, made };
}

/** Reads, checks and (with `apply`) imports one CSV file of people or of enrolments. */
export async function importPeopleCsv(
  db: Db,
  text: string,
  /** `tenantId`: the importing administrator's; the operator's CLI leaves it out (the default tenant). */
  options: { apply: boolean; tenantId?: string },
): Promise<PeopleReport> {
  const read = readCsv(text);
  if ("problems" in read)
    return {
      kind: "users",
      applied: false,
      problems: read.problems,
      rows: [],
      counts: counts([]),
      made: { units: [], terms: [] },
    };
  const tenantId = options.tenantId ?? (await defaultTenantId(db));
  if (!tenantId) throw new Error("The database has no tenant yet: start the server once.");
  const result = await inTransaction(db, options.apply, (tx) =>
    read.kind === "users" ? importUsers(tx, tenantId, read.records) : importEnrolments(tx, tenantId, read.records),
  );
  return {
    kind: read.kind,
    applied: options.apply && result.problems.length === 0,
    problems: result.problems.sort((a, b) => a.line - b.line),
    rows: result.rows,
    counts: counts(result.rows),
    made: result.made,
  };
}
