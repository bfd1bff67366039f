import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { forgetPrincipals } from "../../api/auth";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { enumValues, ObjectiveWorkflowState } from "../../domain/vocabulary";

let t: TestApi;
let tenantId: string;
let ada: string;
let grace: string;
const ids: Record<string, string> = {};
const accessIds: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApi();
  const db = t.database.db;
  ada = t.users.ada;
  grace = t.users.grace;
  [{ id: tenantId }] = await db.select({ id: s.tenants.id }).from(s.tenants);
  const make = async (key: string, over = {}) => {
    const { objective, access } = await createCourse(db, tenantId, over);
    ids[key] = objective.id;
    accessIds[key] = access.id;
  };
  await make("python", { name: "Python basics", isPublic: true });
  await make("rust", { name: "Rust in depth" });
  await make("archivedRoot", { name: "Archived root", activityState: 4 });
  await make("draft", { name: "Draft course", state: 1, isPublic: true });
  await make("closed", { name: "Closed enrolment", allowSelfEnrollment: false });
  await make("hidden", { name: "Not in catalog", inCatalog: false });
  await make("mandatory", { name: "Mandatory safety" });
  await make("finished", { name: "Finished course" });
  await make("assignedNoStanding", { name: "Assigned but not started" });
  await make("graceOnly", { name: "Grace only" });
  const scale = (
    await db
      .insert(s.gradingScales)
      .values({ tenantId, name: "Pct", maxScore: 100, normalizedPassingScore: 0.6 })
      .returning()
  )[0];
  const [gradeA] = await db
    .insert(s.grades)
    .values({ gradingScaleId: scale.id, name: "A", color: "#080", normalizedMinScore: 0.9 })
    .returning();
  await enrolUser(
    db,
    { tenantId, userId: ada, objectiveId: ids.python, accessId: accessIds.python },
    { workflowState: 1 },
  );
  await enrolUser(db, { tenantId, userId: ada, objectiveId: ids.archivedRoot }, { workflowState: 1 });
  await enrolUser(
    db,
    { tenantId, userId: ada, objectiveId: ids.mandatory },
    { isMandatory: true, isSelfEnrolled: false },
  );
  await enrolUser(
    db,
    { tenantId, userId: ada, objectiveId: ids.finished },
    {
      workflowState: 6,
      gradeRevealPolicy: "never",
      record: { score: 95, maxScore: 100, normalizedScore: 0.95, gradeId: gradeA.id, passed: true },
    },
  );
  // An aggregate without self-enrolment, mandatory flag, workflow or record: not a standing (spec 7.2).
  await enrolUser(db, { tenantId, userId: ada, objectiveId: ids.assignedNoStanding }, { isSelfEnrolled: false });
  await enrolUser(db, { tenantId, userId: grace, objectiveId: ids.graceOnly }, { workflowState: 1 });
});
afterAll(() => t.close());

const get = async (path: string, user = "ada") => t.request("GET", path, { token: await t.token(user) });
const names = (body: { data: { objective: { name: string } }[] }) => body.data.map((a) => a.objective.name);

describe("objective-workflow-aggregates/query (spec 7.2)", () => {
  it("applies the standing conditions: excludes archived roots and aggregates with no standing", async () => {
    const res = await get("/api/lms/v1/objective-workflow-aggregates/query?requireTotalCount=true");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(names(body)).toEqual(["Finished course", "Mandatory safety", "Python basics"]);
    expect(body.totalCount).toBe(3);
  });

  it("never shows another learner's aggregates", async () => {
    const body = await (await get("/api/lms/v1/objective-workflow-aggregates/query")).json();
    expect(names(body)).not.toContain("Grace only");
    const grace = await (await get("/api/lms/v1/objective-workflow-aggregates/query", "grace")).json();
    expect(names(grace)).toEqual(["Grace only"]);
  });

  it("one statement per query shape: each learner, search text and page gets its own answer (decision 038)", async () => {
    // The same shape — no filter, name order, a search — asked with other values, alternately.
    const q = (search: string, skip = 0, take = 10) =>
      `/api/lms/v1/objective-workflow-aggregates/query?requireTotalCount=true&search=${search}&skip=${skip}&take=${take}`;
    for (let round = 0; round < 2; round++) {
      const safety = await (await get(q("safety"))).json();
      expect([names(safety), safety.totalCount]).toEqual([["Mandatory safety"], 1]);
      const course = await (await get(q("COURSE"))).json();
      expect([names(course), course.totalCount]).toEqual([["Finished course"], 1]);
      const graceOnly = await (await get(q("only"), "grace")).json();
      expect([names(graceOnly), graceOnly.totalCount]).toEqual([["Grace only"], 1]);
      const none = await (await get(q("only"))).json();
      expect([names(none), none.totalCount]).toEqual([[], 0]);
      const page2 = await (await get(q("s", 1, 1))).json();
      expect([names(page2), page2.totalCount]).toEqual([["Mandatory safety"], 3]);
      // A filter's values are part of the statement: same shape, other value, its own list and total.
      for (const [word, expected] of [
        ["s", ["Finished course", "Mandatory safety", "Python basics"]],
        ["python", ["Python basics"]],
        ["nothing like it", []],
      ] as const) {
        const filter = encodeURIComponent(`objective.name contains '${word}'`);
        const body = await (
          await get(`/api/lms/v1/objective-workflow-aggregates/query?requireTotalCount=true&filter=${filter}`)
        ).json();
        expect([names(body), body.totalCount]).toEqual([expected, expected.length]);
      }
    }
  });

  it.each([
    ["objective.name contains 'PYTHON'", ["Python basics"]],
    ["isMandatory eq true", ["Mandatory safety"]],
    ["lastObjectiveWorkflow.state eq 6", ["Finished course"]],
    ["lastObjectiveWorkflow.state is null and lastObjectiveRecord is null", ["Mandatory safety"]],
    ["not (lastObjectiveWorkflow.state in (1, 3, 5))", ["Finished course", "Mandatory safety"]],
    // The client cannot lift the standing conditions.
    ["objective.activity.state eq 4", []],
  ])("filter %s", async (filter, expected) => {
    const res = await get(`/api/lms/v1/objective-workflow-aggregates/query?filter=${encodeURIComponent(filter)}`);
    expect(res.status).toBe(200);
    expect(names(await res.json())).toEqual(expected);
  });

  it("returns only the selected fields (spec 7.2 select), with the values of the whole aggregate", async () => {
    const query = "/api/lms/v1/objective-workflow-aggregates/query?requireTotalCount=true";
    const full = await (await get(query)).json();
    const select =
      "isMandatory,dueDate,lastObjectiveWorkflow,lastObjectiveRecord,objective.name,objective.showcases,objective.activity";
    const res = await get(`${query}&select=${encodeURIComponent(select)}`);
    expect(res.status).toBe(200);
    const narrow = await res.json();
    expect(narrow.totalCount).toBe(full.totalCount);
    expect(narrow.data).toHaveLength(full.data.length);
    narrow.data.forEach((a: Record<string, unknown>, i: number) => {
      const f = full.data[i];
      expect(Object.keys(a).sort()).toEqual([
        "dueDate",
        "id",
        "isMandatory",
        "lastObjectiveRecord",
        "lastObjectiveWorkflow",
        "objective",
      ]);
      expect(a).toEqual({
        id: f.id,
        isMandatory: f.isMandatory,
        dueDate: f.dueDate,
        lastObjectiveWorkflow: f.lastObjectiveWorkflow,
        // The reveal rule still applies: the "never" course's score stays hidden.
        lastObjectiveRecord: f.lastObjectiveRecord,
        objective: {
          id: f.objective.id,
          name: f.objective.name,
          showcases: f.objective.showcases,
          activity: f.objective.activity,
        },
      });
    });
    const finished = narrow.data.find((a: { objective: { name: string } }) => a.objective.name === "Finished course");
    expect(finished.lastObjectiveRecord).toMatchObject({ score: null, resultsHidden: true });
  });

  it("narrows the last workflow and record to the fields named, with their ids and the reveal rule (decision 038)", async () => {
    const query = "/api/lms/v1/objective-workflow-aggregates/query";
    const full = await (await get(query)).json();
    const pickOf = <T extends Record<string, unknown> | null>(value: T, keys: string[]) =>
      value === null ? null : Object.fromEntries(["id", ...keys].map((k) => [k, value[k]]));
    // A card's fields: no field the reveal rule hides, so no score, grade or policy is read.
    const cardSelect =
      "lastObjectiveWorkflow.state,lastObjectiveWorkflow.finished,lastObjectiveRecord.finished,lastObjectiveRecord.progress";
    const cards = await (await get(`${query}?select=${cardSelect}`)).json();
    // With a hidden field: the rule still applies to it.
    const scored = await (
      await get(`${query}?select=lastObjectiveRecord.score,lastObjectiveRecord.resultsHidden`)
    ).json();
    expect(cards.data).toHaveLength(full.data.length);
    full.data.forEach(
      (
        f: {
          id: string;
          lastObjectiveWorkflow: Record<string, unknown> | null;
          lastObjectiveRecord: Record<string, unknown> | null;
        },
        i: number,
      ) => {
        expect(cards.data[i]).toEqual({
          id: f.id,
          lastObjectiveWorkflow: pickOf(f.lastObjectiveWorkflow, ["state", "finished"]),
          lastObjectiveRecord: pickOf(f.lastObjectiveRecord, ["finished", "progress"]),
        });
        expect(scored.data[i].lastObjectiveRecord).toEqual(pickOf(f.lastObjectiveRecord, ["score", "resultsHidden"]));
        expect(scored.data[i]).not.toHaveProperty("lastObjectiveWorkflow");
      },
    );
    const finished =
      scored.data[full.data.findIndex((a: { objective: { name: string } }) => a.objective.name === "Finished course")];
    expect(finished.lastObjectiveRecord).toEqual({ id: expect.any(String), score: null, resultsHidden: true });
  });

  it("lists a course's collections as the database keeps them: added, renamed, removed (migration 0006)", async () => {
    const db = t.database.db;
    const showcasesOf = async () => {
      const body = await (
        await get("/api/lms/v1/objective-workflow-aggregates/query?select=objective.name,objective.showcases")
      ).json();
      return body.data
        .find((a: { objective: { name: string } }) => a.objective.name === "Python basics")
        .objective.showcases.map((c: { name: string }) => c.name);
    };
    const [zeta, alpha] = await db
      .insert(s.showcases)
      .values([
        { tenantId, name: "Zeta" },
        { tenantId, name: "Alpha" },
      ])
      .returning();
    await db.insert(s.objectiveShowcases).values([
      { objectiveId: ids.python, showcaseId: zeta.id },
      { objectiveId: ids.python, showcaseId: alpha.id },
    ]);
    expect(await showcasesOf()).toEqual(["Alpha", "Zeta"]);
    await db.update(s.showcases).set({ name: "Beta" }).where(eq(s.showcases.id, zeta.id));
    expect(await showcasesOf()).toEqual(["Alpha", "Beta"]);
    await db.delete(s.objectiveShowcases).where(eq(s.objectiveShowcases.showcaseId, alpha.id));
    expect(await showcasesOf()).toEqual(["Beta"]);
    await db.delete(s.showcases).where(eq(s.showcases.id, zeta.id));
    expect(await showcasesOf()).toEqual([]);
  });

  it("joins no workflow or record when neither is selected, and takes the whole course for 'objective'", async () => {
    const body = await (
      await get(
        "/api/lms/v1/objective-workflow-aggregates/query?select=objective,isSelfEnrolled&filter=" +
          encodeURIComponent("lastObjectiveWorkflow.state eq 6"),
      )
    ).json();
    expect(body.data).toHaveLength(1);
    expect(Object.keys(body.data[0]).sort()).toEqual(["id", "isSelfEnrolled", "objective"]);
    expect(body.data[0].objective).toMatchObject({
      name: "Finished course",
      description: expect.any(String),
      activity: expect.any(Object),
    });
  });

  it.each([
    "password",
    "objective.password",
    "objective.activity.state",
    "lastObjectiveRecord.password",
    "lastObjectiveWorkflow.state.x",
    "isMandatory.value",
    ",",
    Array(61).fill("id").join(","),
  ])("refuses select=%s with 400", async (select) => {
    const res = await get(`/api/lms/v1/objective-workflow-aggregates/query?select=${encodeURIComponent(select)}`);
    expect(res.status).toBe(400);
    expect((await res.json()).errors.select[0].code).toBe("invalidSelect");
  });

  it.each([
    "password eq 'x'",
    "objective.name eq 'x'; drop table users; --",
    "1=1",
    "objective.name contains 'x' or (",
    "termId eq 'not-a-uuid'",
    "' or ''='",
  ])("refuses the hostile filter %s with 400 naming the problem", async (filter) => {
    const before = (await t.database.db.select().from(s.users)).length;
    const res = await get(`/api/lms/v1/objective-workflow-aggregates/query?filter=${encodeURIComponent(filter)}`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.errors.filter[0].code).toBe("invalidFilter");
    expect(body.errors.filter[0].message).toMatch(/at \d+/);
    const users = await t.database.db.select().from(s.users);
    expect(users.length).toBe(before);
  });

  it("validates paging and collections", async () => {
    expect((await get("/api/lms/v1/objective-workflow-aggregates/query?take=1000")).status).toBe(400);
    expect((await get("/api/lms/v1/objective-workflow-aggregates/query?skip=-1")).status).toBe(400);
    expect((await get("/api/lms/v1/objective-workflow-aggregates/query?showcase=abc")).status).toBe(400);
    expect((await get("/api/lms/v1/objective-workflow-aggregates/query?filterAttribute=x:y")).status).toBe(400);
    expect((await get("/api/lms/v1/objective-workflow-aggregates/query?sort=password")).status).toBe(400);
  });

  it("hides scores the grade reveal policy hides (spec 4.7, enforced by the API)", async () => {
    const body = await (
      await get(
        `/api/lms/v1/objective-workflow-aggregates/query?filter=${encodeURIComponent("lastObjectiveWorkflow.state eq 6")}`,
      )
    ).json();
    const rec = body.data[0].lastObjectiveRecord;
    expect(rec).toMatchObject({
      score: null,
      maxScore: null,
      normalizedScore: null,
      grade: null,
      passed: null,
      resultsHidden: true,
    });
    const one = await (await get(`/api/lms/v1/objectives/${ids.finished}/objective-workflow-aggregate`)).json();
    expect(one.lastObjectiveRecord.score).toBeNull();
  });

  it("answers with a bounded number of queries, whatever the number of enrolments", async () => {
    const token = await t.token("ada");
    const measure = async () => {
      forgetPrincipals();
      const before = t.database.queryCount();
      await t.request("GET", "/api/lms/v1/objective-workflow-aggregates/query?requireTotalCount=true&take=100", {
        token,
      });
      return t.database.queryCount() - before;
    };
    const few = await measure();
    for (let i = 0; i < 40; i++) {
      const { objective, access } = await createCourse(t.database.db, tenantId);
      await enrolUser(
        t.database.db,
        { tenantId, userId: ada, objectiveId: objective.id, accessId: access.id },
        { workflowState: enumValues(ObjectiveWorkflowState)[i % 6] },
      );
    }
    const many = await measure();
    expect(many).toBe(few);
    expect(many).toBeLessThanOrEqual(6);
  });
});

describe("a learner's own course only", () => {
  it("another learner's course aggregate is 404", async () => {
    expect((await get(`/api/lms/v1/objectives/${ids.graceOnly}/objective-workflow-aggregate`)).status).toBe(404);
    expect((await get(`/api/lms/v1/objectives/${ids.python}/objective-workflow-aggregate`)).status).toBe(200);
    expect((await get(`/api/lms/v1/objectives/not-a-uuid/objective-workflow-aggregate`)).status).toBe(404);
  });
});

describe("catalog (spec 7.2)", () => {
  it("lists ready, listed, non-archived courses with the learner's enrolment", async () => {
    const body = await (
      await get("/api/lms/v1/users/me/objective-accesses/query?requireTotalCount=true&take=100")
    ).json();
    const list = body.data.map((a: { objective: { name: string } }) => a.objective.name);
    expect(list).toContain("Python basics");
    expect(list).not.toContain("Draft course");
    expect(list).not.toContain("Archived root");
    expect(list).not.toContain("Not in catalog");
    const python = body.data.find((a: { objective: { name: string } }) => a.objective.name === "Python basics");
    expect(python.enrolled).toBe(true);
  });

  it("searches case-insensitively, treating % and _ literally", async () => {
    const hit = await (await get("/api/lms/v1/users/me/objective-accesses/query?search=RUST")).json();
    expect(hit.data.map((a: { objective: { name: string } }) => a.objective.name)).toEqual(["Rust in depth"]);
    const none = await (await get("/api/lms/v1/users/me/objective-accesses/query?search=%25")).json();
    expect(none.data).toEqual([]);
  });

  // The statement is built once per shape (decision 038, addendum 7): the learner, the tenant and the
  // search text are its values, so two learners, or two searches, of one shape each get their own answer.
  it("answers each learner and each search of one shape with their own enrolments and totals", async () => {
    const query = "/api/lms/v1/users/me/objective-accesses/query?requireTotalCount=true&take=100";
    const enrolled = (body: { data: { enrolled: boolean; objective: { name: string } }[] }) =>
      body.data.filter((a) => a.enrolled).map((a) => a.objective.name);
    const asAda = await (await get(query)).json();
    const asGrace = await (await get(query, "grace")).json();
    expect(enrolled(asAda)).toContain("Python basics");
    expect(enrolled(asGrace)).not.toContain("Python basics");
    expect(enrolled(asGrace)).toContain("Grace only");
    expect(enrolled(asAda)).not.toContain("Grace only");
    expect(asGrace.totalCount).toBe(asAda.totalCount);
    const rust = await (await get(`${query}&search=rust`)).json();
    const python = await (await get(`${query}&search=python`)).json();
    expect([names(rust), rust.totalCount]).toEqual([["Rust in depth"], 1]);
    expect([names(python), python.totalCount]).toEqual([["Python basics"], 1]);
    const page2 = await (await get(`${query.replace("take=100", "take=2")}&skip=2`)).json();
    expect(names(page2)).toEqual(names(asAda).slice(2, 4));
  });

  it("a course that is not listed reads as not found", async () => {
    expect((await get(`/api/lms/v1/users/me/objectives/${ids.hidden}/objective-access`)).status).toBe(404);
    expect((await get(`/api/lms/v1/users/me/objectives/${ids.rust}/objective-access`)).status).toBe(200);
  });
});

describe("create-self-enrollments (spec 7.3)", () => {
  const enrol = async (body: unknown, user = "ada", prefer = "respond-sync") =>
    t.request("POST", "/api/lms/v1/create-self-enrollments", {
      token: await t.token(user),
      body,
      headers: { Prefer: prefer },
    });

  it("enrols once, however often the same command arrives, even concurrently", async () => {
    const id = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => enrol({ id, objectiveAccessId: accessIds.rust })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const again = await enrol({ id: crypto.randomUUID(), objectiveAccessId: accessIds.rust });
    expect(again.status).toBe(200);
    const rows = await t.database.db
      .select()
      .from(s.objectiveWorkflowAggregates)
      .where(
        and(eq(s.objectiveWorkflowAggregates.userId, ada), eq(s.objectiveWorkflowAggregates.objectiveId, ids.rust)),
      );
    expect(rows).toHaveLength(1);
    expect(rows[0].isSelfEnrolled).toBe(true);
    const agg = await (await get(`/api/lms/v1/objectives/${ids.rust}/objective-workflow-aggregate`)).json();
    expect(agg.objective.name).toBe("Rust in depth");
  });

  it("remembers My courses' total between pages and follows the learner's enrolment at once (decision 038)", async () => {
    const token = await t.token("ada");
    const list = async () => {
      const before = t.database.queryCount();
      const res = await t.request(
        "GET",
        "/api/lms/v1/objective-workflow-aggregates/query?requireTotalCount=true&take=1",
        { token },
      );
      return { total: (await res.json()).totalCount as number, statements: t.database.queryCount() - before };
    };
    const first = await list(); // reads the user and the count once
    const cached = await list(); // the page's rows only: user and count from memory
    expect(cached.total).toBe(first.total);
    // A page view posted to the analytics collector is a write, but of nothing the total counts.
    const view = await t.request("POST", "/api/analytics/v1/events", {
      token,
      body: { events: [{ name: "page_view", page: "/learn/courses", props: {} }] },
    });
    expect(view.status).toBe(200);
    expect((await list()).statements).toBe(cached.statements);
    const { access } = await createCourse(t.database.db, tenantId, { name: "Counted course" });
    expect((await enrol({ id: crypto.randomUUID(), objectiveAccessId: access.id })).status).toBe(200);
    // The learner's own write forgets their count at once: it is read again, and it is one more.
    const afterEnrol = await list();
    expect(afterEnrol.total).toBe(first.total + 1);
    expect(afterEnrol.statements).toBeGreaterThan(cached.statements);
    // A change made outside this API (another node, an operator's SQL) arrives as the database's notice.
    const { objective } = await createCourse(t.database.db, tenantId, { name: "Assigned elsewhere" });
    await enrolUser(t.database.db, { tenantId, userId: ada, objectiveId: objective.id }, { workflowState: 1 });
    await expect.poll(async () => (await list()).total).toBe(first.total + 2);
  });

  it("refuses courses that do not allow self-enrolment (422) and unknown or unlisted ones (404)", async () => {
    const closed = await enrol({ id: crypto.randomUUID(), objectiveAccessId: accessIds.closed });
    expect(closed.status).toBe(422);
    expect((await closed.json()).errors[""][0].code).toBe("selfEnrollmentNotAllowed");
    expect((await enrol({ id: crypto.randomUUID(), objectiveAccessId: accessIds.draft })).status).toBe(422);
    expect((await enrol({ id: crypto.randomUUID(), objectiveAccessId: crypto.randomUUID() })).status).toBe(404);
    expect((await enrol({ id: "x", objectiveAccessId: accessIds.rust })).status).toBe(400);
    const rows = await t.database.db
      .select()
      .from(s.objectiveWorkflowAggregates)
      .where(eq(s.objectiveWorkflowAggregates.objectiveId, ids.closed));
    expect(rows).toHaveLength(0);
  });

  it("answers 202 with a status location under respond-async", async () => {
    const res = await enrol({ id: crypto.randomUUID(), objectiveAccessId: accessIds.python }, "grace", "respond-async");
    expect(res.status).toBe(202);
    const status = await (
      await t.request("GET", res.headers.get("location")!, { token: await t.token("grace") })
    ).json();
    expect(status.state).toBe("completed");
  });
});

describe("public open catalog (spec 7.2)", () => {
  it("exposes only public, ready courses and no learner data, without a token", async () => {
    const res = await t.request("GET", "/api/lms/v1/public/open-catalog/objectives/query?requireTotalCount=true");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.map((o: { name: string }) => o.name)).toEqual(["Python basics"]);
    expect(body.data[0]).not.toHaveProperty("gradingScaleId");
    expect((await t.request("GET", `/api/lms/v1/public/open-catalog/objectives/${ids.draft}`)).status).toBe(404);
    expect((await t.request("GET", `/api/lms/v1/public/open-catalog/objectives/${ids.rust}`)).status).toBe(404);
    expect((await t.request("GET", `/api/lms/v1/public/open-catalog/objectives/${ids.python}`)).status).toBe(200);
  });

  it("signed-in endpoints refuse anonymous calls", async () => {
    expect((await t.request("GET", "/api/lms/v1/objective-workflow-aggregates/query")).status).toBe(401);
    expect((await t.request("POST", "/api/lms/v1/create-self-enrollments", { body: {} })).status).toBe(401);
  });
});
