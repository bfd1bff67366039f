import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../api/db/client";
import {
  licences,
  objectiveAccesses,
  objectives,
  objectiveWorkflowAggregates as owa,
  terms,
  userRoles,
  users,
  userUnits,
  units,
} from "../../api/db/schema";
import { seedDemo } from "../../demo/seed";
import { importPeopleCsv } from "../../api/people/import";
import { openTestDatabase } from "../fixtures/database";
import { createTestApi, type TestApi } from "../fixtures/api";

/**
 * Issue 50 item 3 (decision 049): people and enrolments from CSV on real PGlite — a dry run that writes
 * nothing, problems by line that stop the whole file, --apply, and the same file again changing nothing.
 */
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await seedDemo(database.db, { catalog: true });
});
afterAll(() => database.close());

const userCount = async () => (await database.db.select({ n: sql<number>`count(*)::int` }).from(users))[0].n;
const person = async (email: string) => (await database.db.select().from(users).where(eq(users.email, email)))[0];

const PEOPLE = [
  "email,first_name,last_name,locale,time_zone,roles,units,external_id",
  "Hedy.Lamarr@Acme.example,Hedy,Lamarr,de,Europe/Vienna,Learner,Cryptanalysis;Vienna office,HR-1001",
  '"joan.clarke@acme.example","Joan","Clarke, OBE",en-US,Europe/London,"Learner;Instructor",Cryptanalysis,HR-1002',
].join("\n");

describe("people from CSV", () => {
  it("a dry run says what it would do and writes nothing", async () => {
    const before = await userCount();
    const report = await importPeopleCsv(database.db, PEOPLE, { apply: false });
    expect(report).toMatchObject({ kind: "users", applied: false, problems: [] });
    expect(report.counts).toEqual({ created: 2, updated: 0, unchanged: 0 });
    expect(report.made.units.sort()).toEqual(["Cryptanalysis", "Vienna office"]);
    expect(await userCount()).toBe(before);
    expect(await database.db.select().from(units).where(eq(units.name, "Vienna office"))).toEqual([]);
  });

  it("a file with mistakes lists each by its line and column, and writes nothing of its good rows", async () => {
    const before = await userCount();
    const text = [
      "email,first_name,last_name,locale,time_zone,roles,external_id",
      "good.one@acme.example,Good,One,,,,",
      "not-an-address,Bad,Address,,,,",
      "no.name@acme.example,,Name,xx,Mars/Olympus,Wizard,",
      // A quoted field over two lines: the next record starts on line 7.
      '"multi@acme.example","Multi","Line',
      'Name",,,,',
      "good.one@acme.example,Twice,Again,,,,",
    ].join("\n");
    const report = await importPeopleCsv(database.db, text, { apply: true });
    expect(report.applied).toBe(false);
    expect(report.problems.map((p) => [p.line, p.column])).toEqual([
      [3, "email"],
      [4, "first_name"],
      [4, "locale"],
      [4, "time_zone"],
      [4, "roles"],
      [7, "email"],
    ]);
    expect(report.problems.at(-1)!.message).toContain("line 2");
    expect(await userCount()).toBe(before);
  });

  it("an unknown column or a file that is not CSV is answered on line 1 or where the parser stopped", async () => {
    expect(
      (await importPeopleCsv(database.db, "email,first_name,last_name,shoe_size\na@b.cd,A,B,44", { apply: true }))
        .problems,
    ).toEqual([{ line: 1, column: "shoe_size", message: 'Unknown column "shoe_size".' }]);
    const broken = await importPeopleCsv(database.db, 'email,first_name,last_name\n"a@b.cd,A,B\n', { apply: true });
    expect(broken.problems).toHaveLength(1);
    expect(broken.problems[0].line).toBeGreaterThanOrEqual(2);
  });

  it("--apply makes the people (roles, units, licence, language, time zone); the same file again changes nothing", async () => {
    const report = await importPeopleCsv(database.db, PEOPLE, { apply: true });
    expect(report).toMatchObject({ applied: true, problems: [], counts: { created: 2, updated: 0, unchanged: 0 } });
    const hedy = await person("hedy.lamarr@acme.example");
    expect(hedy).toMatchObject({ firstName: "Hedy", locale: "de", timezone: "Europe/Vienna", externalId: "HR-1001" });
    const joan = await person("joan.clarke@acme.example");
    expect(joan.lastName).toBe("Clarke, OBE");
    const roles = await database.db
      .select({ role: userRoles.role })
      .from(userRoles)
      .where(eq(userRoles.userId, joan.id));
    expect(roles.map((r) => r.role).sort()).toEqual(["Instructor", "Learner"]);
    const hedyUnits = await database.db
      .select({ name: units.name, isPrimary: userUnits.isPrimary })
      .from(userUnits)
      .innerJoin(units, eq(units.id, userUnits.unitId))
      .where(eq(userUnits.userId, hedy.id));
    expect(hedyUnits.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: "Cryptanalysis", isPrimary: true },
      { name: "Vienna office", isPrimary: false },
    ]);
    expect(await database.db.select().from(licences).where(eq(licences.userId, hedy.id))).toHaveLength(1);

    const again = await importPeopleCsv(database.db, PEOPLE, { apply: true });
    expect(again.counts).toEqual({ created: 0, updated: 0, unchanged: 2 });
    expect(again.made).toEqual({ units: [], terms: [] });
  });

  it("a row for a known external id updates that person, even under a new address", async () => {
    const hedy = await person("hedy.lamarr@acme.example");
    const report = await importPeopleCsv(
      database.db,
      "email,first_name,last_name,external_id\nhedy@acme.example,Hedy,Kiesler,HR-1001",
      { apply: true },
    );
    expect(report.counts).toEqual({ created: 0, updated: 1, unchanged: 0 });
    expect(await person("hedy@acme.example")).toMatchObject({ id: hedy.id, lastName: "Kiesler" });
    // The columns the file leaves out are kept (units, roles).
    expect(await database.db.select().from(userUnits).where(eq(userUnits.userId, hedy.id))).toHaveLength(2);
  });
});

describe("enrolments from CSV", () => {
  const ENROLMENTS = [
    "course_code,email,external_id,mandatory,due_date,availability_date,availability_end_date,term,retake",
    "AB-101,,HR-1001,yes,2027-03-31,2027-01-01,2027-06-30,Intake 2031,no",
    "AI-150,joan.clarke@acme.example,,no,2027-04-15T17:00:00+02:00,,,,yes",
  ].join("\n");

  it("unknown courses and people are problems with their lines", async () => {
    const report = await importPeopleCsv(
      database.db,
      "course_code,email,mandatory,due_date\nNOPE-1,joan.clarke@acme.example,yes,\nAB-101,nobody@acme.example,maybe,31/03/2027",
      { apply: true },
    );
    expect(report.problems.map((p) => [p.line, p.column])).toEqual([
      [3, "mandatory"],
      [3, "due_date"],
    ]);
    const second = await importPeopleCsv(
      database.db,
      "course_code,email\nNOPE-1,joan.clarke@acme.example\nAB-101,nobody@acme.example",
      { apply: true },
    );
    expect(second.problems.map((p) => [p.line, p.column])).toEqual([
      [2, "course_code"],
      [3, "email"],
    ]);
  });

  it("--apply assigns the courses with their terms; again, nothing changes; a changed due date updates in place", async () => {
    const hedy = await person("hedy@acme.example");
    const report = await importPeopleCsv(database.db, ENROLMENTS, { apply: true });
    expect(report).toMatchObject({ kind: "enrolments", applied: true, problems: [] });
    expect(report.counts).toEqual({ created: 2, updated: 0, unchanged: 0 });
    expect(report.made.terms).toEqual(["Intake 2031"]);
    const [course] = await database.db.select().from(objectives).where(eq(objectives.code, "AB-101"));
    const [aggregate] = await database.db
      .select()
      .from(owa)
      .where(and(eq(owa.userId, hedy.id), eq(owa.objectiveId, course.id)));
    const [term] = await database.db.select().from(terms).where(eq(terms.name, "Intake 2031"));
    expect(aggregate).toMatchObject({
      isMandatory: true,
      retake: false,
      dueDate: new Date("2027-03-31T23:59:59Z"),
      availabilityDate: new Date("2027-01-01T00:00:00Z"),
      availabilityEndDate: new Date("2027-06-30T23:59:59Z"),
      termId: term.id,
    });
    const [access] = await database.db
      .select()
      .from(objectiveAccesses)
      .where(eq(objectiveAccesses.id, aggregate.objectiveAccessId!));
    expect(access).toMatchObject({ userId: hedy.id, isMandatory: true });

    const again = await importPeopleCsv(database.db, ENROLMENTS, { apply: true });
    expect(again.counts).toEqual({ created: 0, updated: 0, unchanged: 2 });

    const moved = await importPeopleCsv(database.db, ENROLMENTS.replace("2027-03-31", "2027-05-31"), { apply: true });
    expect(moved.counts).toEqual({ created: 0, updated: 1, unchanged: 1 });
    const [after] = await database.db.select().from(owa).where(eq(owa.id, aggregate.id));
    expect(after.dueDate).toEqual(new Date("2027-05-31T23:59:59Z"));
    expect(await database.db.select().from(owa).where(eq(owa.userId, hedy.id))).toHaveLength(1);
  });
});

describe("POST /api/people/v1/imports (an HR system)", () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await createTestApi();
  });
  afterAll(() => t.close());
  const send = (token: string, body: string, query = "") =>
    t.request("POST", `/api/people/v1/imports${query}`, {
      token,
      body,
      headers: { "Content-Type": "text/csv" },
    });
  const FILE = "email,first_name,last_name,external_id\nalan.turing@acme.example,Alan,Turing,HR-7";

  it("a learner is refused (403); an administrator gets the dry run's report, then imports with apply=true", async () => {
    expect((await send(await t.token("ada"), FILE, "?apply=true")).status).toBe(403);
    const admin = await t.token("admin");
    const dry = await send(admin, FILE);
    expect(dry.status).toBe(200);
    expect(await dry.json()).toMatchObject({ applied: false, counts: { created: 1 } });
    const applied = await send(admin, FILE, "?apply=true");
    expect(await applied.json()).toMatchObject({ applied: true, counts: { created: 1 } });
    const again = await send(admin, FILE, "?apply=true");
    expect(await again.json()).toMatchObject({ applied: true, counts: { created: 0, unchanged: 1 } });
  });

  it("problems are a 422 with their lines; a JSON body is 415", async () => {
    const admin = await t.token("admin");
    const res = await send(admin, "email,first_name,last_name\nnope,A,B", "?apply=true");
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ problems: [{ line: 2, column: "email" }] });
    const json = await t.request("POST", "/api/people/v1/imports", { token: admin, body: { email: "x" } });
    expect(json.status).toBe(415);
  });
});
