import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser } from "../fixtures/courses";
import { createLtiCourse, keyedTool, serviceAccessToken } from "../fixtures/lti";
import * as s from "../../api/db/schema";
import { ActivityKind, ObjectiveWorkflowState } from "../../domain/vocabulary";
import { LTI_MEDIA_TYPE, LTI_SCOPE } from "../../domain/lti";

/**
 * Issue 32 item 3 (decision 041): AGS 2.0's line-items container (filters, paging, POST, PUT, DELETE),
 * the results service, scores refused with their reason, and NRPS 2.0's membership (learners and
 * instructors, status, role filter, paging, differences) — over HTTP as a tool calls them.
 */
const APP = "https://lms.example";
const GRADING = `${APP}/api/lti/v1/grading/contexts`;
let t: TestApi;
let tenantId: string;
let lab: Awaited<ReturnType<typeof keyedTool>>;
let other: Awaited<ReturnType<typeof keyedTool>>;

beforeAll(async () => {
  lab = await keyedTool("lab");
  // "lab" may know names and e-mail addresses; "other" keeps the default, the user id only (issue 52 item 6).
  lab.tool = { ...lab.tool, privacy: "public" };
  other = await keyedTool("other");
  t = await createTestApi({ appUrl: APP, lti: { tools: [lab.tool, other.tool] } });
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(() => t.close());

const token = (tool = lab, scope: string = Object.values(LTI_SCOPE).join(" ")) =>
  serviceAccessToken(t, APP, tool, scope);

/** A service call by path under /api/lti/v1/grading/contexts (or a full URL the platform gave). */
async function call(
  method: string,
  path: string,
  opts: { token: string; body?: unknown; type?: string } = { token: "" },
) {
  const url = path.startsWith("http") ? new URL(path) : new URL(`${GRADING}/${path}`);
  return t.request(method, `${url.pathname}${url.search}`, {
    token: opts.token,
    ...(opts.body === undefined
      ? {}
      : { body: JSON.stringify(opts.body), headers: { "Content-Type": opts.type ?? LTI_MEDIA_TYPE.lineItem } }),
  });
}

/** A course with three LTI activities: two graded ones of "lab" (out of 10 and 20), one of "other". */
async function threeLinks() {
  const db = t.database.db;
  const { objective } = await createCourse(db, tenantId, { activityKind: ActivityKind.composite });
  const tree = await createTree(db, tenantId, objective.id, [
    { kind: ActivityKind.lti, maxScore: 10 },
    { kind: ActivityKind.lti, maxScore: 20 },
    { kind: ActivityKind.lti, maxScore: 5 },
  ]);
  const parts = await db.select().from(s.activityParts).where(eq(s.activityParts.objectiveId, objective.id));
  const byId = new Map(parts.map((p) => [p.id, p]));
  const tools = ["lab", "lab", "other"];
  for (const [i, partId] of tree.partIds.entries())
    await db
      .update(s.activities)
      .set({ content: { tool: tools[i] }, supportLtiGrading: true })
      .where(eq(s.activities.id, byId.get(partId)!.activityId));
  return { objectiveId: objective.id, links: tree.partIds };
}

const score = (userId: string, given: number, timestamp = new Date().toISOString(), extra = {}) => ({
  userId,
  scoreGiven: given,
  scoreMaximum: 100,
  activityProgress: "Completed",
  gradingProgress: "FullyGraded",
  timestamp,
  ...extra,
});

/** The URLs of a Link header by relation. */
function links(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (res.headers.get("link") ?? "").matchAll(/<([^>]+)>;\s*rel="([^"]+)"/g)) out[m[2]!] = m[1]!;
  return out;
}

describe("AGS line-items container (§3.2)", () => {
  it("lists the tool's line items — its graded links' and its own — filtered by resource link, resource id and tag", async () => {
    const c = await threeLinks();
    const tk = await token();
    const base = `${c.objectiveId}/line-items`;
    const empty = await call("GET", base, { token: tk });
    expect(empty.status).toBe(200);
    expect(empty.headers.get("content-type")).toContain(LTI_MEDIA_TYPE.lineItems);
    expect(await empty.json()).toEqual([
      {
        id: `${GRADING}/${base}/${c.links[0]}`,
        label: expect.any(String),
        scoreMaximum: 10,
        resourceLinkId: c.links[0],
      },
      {
        id: `${GRADING}/${base}/${c.links[1]}`,
        label: expect.any(String),
        scoreMaximum: 20,
        resourceLinkId: c.links[1],
      },
    ]);

    // The tool makes three line items: one on its first link, two of its own with tags and resource ids.
    const made = [];
    for (const body of [
      { label: "Lab 1, part b", scoreMaximum: 50, resourceLinkId: c.links[0], tag: "bonus" },
      { label: "Quiz A", scoreMaximum: 10, resourceId: "quiz-a", tag: "quiz" },
      {
        label: "Quiz B",
        scoreMaximum: 10,
        resourceId: "quiz-b",
        tag: "quiz",
        startDateTime: "2026-01-01T00:00:00.000Z",
      },
    ]) {
      const res = await call("POST", base, { token: tk, body });
      expect(res.status).toBe(201);
      const item = await res.json();
      expect(res.headers.get("location")).toBe(item.id);
      expect(item).toMatchObject({
        ...body,
        id: expect.stringMatching(new RegExp(`^${GRADING}/${base}/[0-9a-f-]{36}$`)),
      });
      made.push(item);
    }
    const before = t.database.queryCount();
    const all = await (await call("GET", base, { token: tk })).json();
    expect(t.database.queryCount() - before).toBeLessThanOrEqual(2);
    expect(all).toHaveLength(5);
    const byLink = await (await call("GET", `${base}?resource_link_id=${c.links[0]}`, { token: tk })).json();
    expect(byLink.map((i: { label: string }) => i.label)).toEqual([all[0].label, "Lab 1, part b"]);
    expect(await (await call("GET", `${base}?tag=quiz`, { token: tk })).json()).toEqual([made[1], made[2]]);
    expect(await (await call("GET", `${base}?resource_id=quiz-b`, { token: tk })).json()).toEqual([made[2]]);
    expect(await (await call("GET", `${base}?tag=quiz&resource_id=quiz-a`, { token: tk })).json()).toEqual([made[1]]);

    // The other tool of the course sees only its own link's line item, and none of lab's.
    const otherToken = await token(other);
    const theirs = await (await call("GET", base, { token: otherToken })).json();
    expect(theirs.map((i: { resourceLinkId: string }) => i.resourceLinkId)).toEqual([c.links[2]]);
    expect((await call("GET", made[1].id, { token: otherToken })).status).toBe(403);
  });

  it("pages with limit and page, and says where the other pages are in a Link header", async () => {
    const c = await threeLinks();
    const tk = await token();
    const base = `${c.objectiveId}/line-items`;
    for (let i = 0; i < 3; i++)
      expect((await call("POST", base, { token: tk, body: { label: `Item ${i}`, scoreMaximum: 1 } })).status).toBe(201);
    const first = await call("GET", `${base}?limit=2`, { token: tk });
    expect((await first.json()).length).toBe(2);
    const rel = links(first);
    expect(Object.keys(rel).sort()).toEqual(["first", "last", "next"]);
    expect(rel.next).toBe(`${GRADING}/${base}?limit=2&page=2`);
    expect(rel.last).toBe(`${GRADING}/${base}?limit=2&page=3`);
    // Following next to the end gives every item once.
    const seen: string[] = [];
    let next: string | undefined = `${GRADING}/${base}?limit=2`;
    while (next) {
      const res = await call("GET", next, { token: tk });
      seen.push(...(await res.json()).map((i: { id: string }) => i.id));
      next = links(res).next;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    const last = await call("GET", `${base}?limit=2&page=3`, { token: tk });
    expect(Object.keys(links(last)).sort()).toEqual(["first", "last", "prev"]);
    // Without a limit nothing is paged.
    expect((await call("GET", base, { token: tk })).headers.get("link")).toBeNull();
  });

  it("updates and deletes the tool's own line items; the platform's are refused with their reason", async () => {
    const c = await threeLinks();
    const tk = await token();
    const base = `${c.objectiveId}/line-items`;
    const item = await (
      await call("POST", base, { token: tk, body: { label: "Essay", scoreMaximum: 40, resourceLinkId: c.links[1] } })
    ).json();
    const put = await call("PUT", item.id, {
      token: tk,
      body: { id: item.id, label: "Essay (final)", scoreMaximum: 50, resourceLinkId: c.links[1], tag: "final" },
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ ...item, label: "Essay (final)", scoreMaximum: 50, tag: "final" });
    expect(await (await call("GET", item.id, { token: tk })).json()).toMatchObject({ label: "Essay (final)" });
    // Moving it to another link, and changing the platform's line item, are refused.
    const moved = await call("PUT", item.id, {
      token: tk,
      body: { label: "Essay", scoreMaximum: 50, resourceLinkId: c.links[0] },
    });
    expect(moved.status).toBe(400);
    const platformItem = `${GRADING}/${base}/${c.links[0]}`;
    const refusedPut = await call("PUT", platformItem, { token: tk, body: { label: "Renamed", scoreMaximum: 99 } });
    expect(refusedPut.status).toBe(403);
    expect((await refusedPut.json()).errors[""][0].code).toBe("ltiPlatformLineItem");
    expect((await call("DELETE", platformItem, { token: tk })).status).toBe(403);
    // Another tool may not touch it.
    expect((await call("DELETE", item.id, { token: await token(other) })).status).toBe(403);

    expect((await call("DELETE", item.id, { token: tk })).status).toBe(204);
    expect((await call("GET", item.id, { token: tk })).status).toBe(404);
    expect((await call("DELETE", item.id, { token: tk })).status).toBe(404);
  });

  it("refuses bad line items, another tool's resource link, a read-only token, and courses the tool is not in", async () => {
    const c = await threeLinks();
    const base = `${c.objectiveId}/line-items`;
    const tk = await token();
    for (const body of [
      { scoreMaximum: 10 },
      { label: "", scoreMaximum: 10 },
      { label: "No maximum" },
      { label: "Zero", scoreMaximum: 0 },
      { label: "Dates", scoreMaximum: 1, startDateTime: "2026-02-01T00:00:00Z", endDateTime: "2026-01-01T00:00:00Z" },
      { label: "Other's link", scoreMaximum: 1, resourceLinkId: c.links[2] },
    ])
      expect((await call("POST", base, { token: tk, body })).status, JSON.stringify(body)).toBe(400);
    expect(
      (await call("POST", base, { token: tk, body: { label: "x", scoreMaximum: 1 }, type: "text/plain" })).status,
    ).toBe(415);
    const readOnly = await token(lab, LTI_SCOPE.lineItemReadOnly);
    expect((await call("POST", base, { token: readOnly, body: { label: "x", scoreMaximum: 1 } })).status).toBe(403);
    expect((await call("GET", base, { token: readOnly })).status).toBe(200);
    // A course without the tool's links.
    const elsewhere = await createLtiCourse(t, tenantId, "other");
    expect((await call("GET", `${elsewhere.objectiveId}/line-items`, { token: tk })).status).toBe(403);
    expect(
      (await call("POST", `${elsewhere.objectiveId}/line-items`, { token: tk, body: { label: "x", scoreMaximum: 1 } }))
        .status,
    ).toBe(403);
    expect(
      await t.database.db.select().from(s.ltiLineItems).where(eq(s.ltiLineItems.objectiveId, c.objectiveId)),
    ).toEqual([]);
  });
});

describe("AGS scores and results (§3.3, §3.4)", () => {
  /** A course of lab's with ada's attempt in progress and the activity opened (launched). */
  async function launched() {
    const c = await createLtiCourse(t, tenantId, "lab");
    const res = await t.request("POST", `/api/lms/v1/objective-workflows/${c.wfId}/resource-link`, {
      token: await t.token("ada"),
      body: { activityPathId: c.partId },
      headers: { Prefer: "respond-sync" },
    });
    expect(res.status).toBe(200);
    return c;
  }

  it("a score on a resource link's line item is the attempt's record and its result; an older one is refused (409)", async () => {
    const c = await launched();
    const tk = await token();
    const item = `${GRADING}/${c.objectiveId}/line-items/${c.partId}`;
    const at = new Date();
    const first = await call("POST", `${item}/scores`, {
      token: tk,
      body: score(t.users.ada, 80, at.toISOString(), { comment: "Well done" }),
      type: LTI_MEDIA_TYPE.score,
    });
    expect(first.status).toBe(204);
    const before = t.database.queryCount();
    const results = await call("GET", `${item}/results`, { token: tk });
    expect(t.database.queryCount() - before).toBeLessThanOrEqual(3);
    expect(results.headers.get("content-type")).toContain(LTI_MEDIA_TYPE.results);
    expect(await results.json()).toEqual([
      {
        id: `${item}/results/${t.users.ada}`,
        scoreOf: item,
        userId: t.users.ada,
        resultScore: 8,
        resultMaximum: 10,
        comment: "Well done",
      },
    ]);
    // An older score: refused, the record keeps 8.
    const stale = await call("POST", `${item}/scores`, {
      token: tk,
      body: score(t.users.ada, 20, new Date(at.getTime() - 60_000).toISOString()),
      type: LTI_MEDIA_TYPE.score,
    });
    expect(stale.status).toBe(409);
    expect((await stale.json()).errors.timestamp[0].code).toBe("ltiStaleScore");
    const [rec] = await t.database.db
      .select()
      .from(s.activityRecords)
      .where(and(eq(s.activityRecords.userId, t.users.ada), eq(s.activityRecords.activityPartId, c.partId)));
    expect(rec!.score).toBe(8);
    // Results by user_id; a token without result.readonly is refused.
    expect(await (await call("GET", `${item}/results?user_id=${t.users.grace}`, { token: tk })).json()).toEqual([]);
    expect((await call("GET", `${item}/results`, { token: await token(lab, LTI_SCOPE.score) })).status).toBe(403);
  });

  it("a score for an attempt already submitted is 409 with the reason, for a learner without an attempt 404", async () => {
    const c = await launched();
    const tk = await token();
    const scores = `${GRADING}/${c.objectiveId}/line-items/${c.partId}/scores`;
    await t.database.db
      .update(s.objectiveWorkflows)
      .set({ state: ObjectiveWorkflowState.submitted, submitted: new Date("2026-11-20T10:00:00Z") })
      .where(eq(s.objectiveWorkflows.id, c.wfId));
    const res = await call("POST", scores, { token: tk, body: score(t.users.ada, 90), type: LTI_MEDIA_TYPE.score });
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.errors.userId[0]).toEqual({
      code: "ltiAttemptSubmitted",
      message: "This learner's attempt was submitted on 2026-11-20T10:00:00.000Z; a score can no longer change it.",
    });
    expect(
      await t.database.db.select().from(s.activityRecords).where(eq(s.activityRecords.activityPartId, c.partId)),
    ).toEqual([]);
    const nobody = await call("POST", scores, { token: tk, body: score(t.users.rita, 90), type: LTI_MEDIA_TYPE.score });
    expect(nobody.status).toBe(404);
  });

  it("an attempt in progress where the learner never opened the activity is 409 (not launched)", async () => {
    const c = await createLtiCourse(t, tenantId, "lab");
    const res = await call("POST", `${GRADING}/${c.objectiveId}/line-items/${c.partId}/scores`, {
      token: await token(),
      body: score(t.users.ada, 50),
      type: LTI_MEDIA_TYPE.score,
    });
    expect(res.status).toBe(409);
    expect((await res.json()).errors.userId[0].code).toBe("ltiNotLaunched");
  });

  it("a tool's own line item keeps each enrolled learner's result on its scale, paged, and loses them when deleted", async () => {
    const c = await launched();
    await enrolUser(t.database.db, { tenantId, userId: t.users.grace, objectiveId: c.objectiveId });
    const tk = await token();
    const item = await (
      await call("POST", `${c.objectiveId}/line-items`, { token: tk, body: { label: "Peer review", scoreMaximum: 4 } })
    ).json();
    for (const [user, given] of [
      [t.users.ada, 50],
      [t.users.grace, 100],
    ] as const)
      expect(
        (await call("POST", `${item.id}/scores`, { token: tk, body: score(user, given), type: LTI_MEDIA_TYPE.score }))
          .status,
      ).toBe(204);
    // Not enrolled: 404.
    expect(
      (await call("POST", `${item.id}/scores`, { token: tk, body: score(t.users.rita, 1), type: LTI_MEDIA_TYPE.score }))
        .status,
    ).toBe(404);
    const page1 = await call("GET", `${item.id}/results?limit=1`, { token: tk });
    const next = links(page1).next!;
    const page2 = await call("GET", next, { token: tk });
    const all = [...(await page1.json()), ...(await page2.json())];
    expect(
      all
        .map((r: { userId: string; resultScore: number; resultMaximum: number }) => [
          r.userId,
          r.resultScore,
          r.resultMaximum,
        ])
        .sort(),
    ).toEqual(
      [
        [t.users.ada, 2, 4],
        [t.users.grace, 4, 4],
      ].sort(),
    );
    // Pending grading: the result has no score yet.
    await call("POST", `${item.id}/scores`, {
      token: tk,
      body: score(t.users.ada, 70, new Date(Date.now() + 1000).toISOString(), { gradingProgress: "PendingManual" }),
      type: LTI_MEDIA_TYPE.score,
    });
    const ada = await (await call("GET", `${item.id}/results?user_id=${t.users.ada}`, { token: tk })).json();
    expect(ada).toEqual([
      { id: `${item.id}/results/${t.users.ada}`, scoreOf: item.id, userId: t.users.ada, resultMaximum: 4 },
    ]);
    // The activity's record is untouched by scores on the tool's own line item.
    expect(
      await t.database.db.select().from(s.activityRecords).where(eq(s.activityRecords.activityPartId, c.partId)),
    ).toEqual([]);
    expect((await call("DELETE", item.id, { token: tk })).status).toBe(204);
    expect(
      await t.database.db
        .select()
        .from(s.ltiResults)
        .where(eq(s.ltiResults.lineItemId, item.id.split("/").at(-1))),
    ).toEqual([]);
  });
});

describe("NRPS membership (NRPS 2.0)", () => {
  /** A course of lab's: ada enrolled, rita enrolled until yesterday, grace an instructor of the tenant. */
  async function course() {
    const c = await createLtiCourse(t, tenantId, "lab");
    await enrolUser(
      t.database.db,
      {
        tenantId,
        userId: t.users.rita,
        objectiveId: c.objectiveId,
      },
      { availabilityEndDate: new Date(Date.now() - 86_400_000) },
    );
    return c;
  }
  const memberships = (objectiveId: string) => `${GRADING}/${objectiveId}/memberships`;
  type Member = { user_id: string; status: string; roles: string[]; given_name: string; email: string };
  const LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner";
  const INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor";

  it("returns the context's learners and instructors with their roles and status, in one statement a page", async () => {
    const c = await course();
    const tk = await token(lab, LTI_SCOPE.memberships);
    const before = t.database.queryCount();
    const res = await call("GET", memberships(c.objectiveId), { token: tk });
    expect(t.database.queryCount() - before).toBeLessThanOrEqual(3);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain(LTI_MEDIA_TYPE.memberships);
    const body = await res.json();
    expect(body.id).toBe(memberships(c.objectiveId));
    expect(body.context).toMatchObject({ id: c.objectiveId });
    const byId = new Map<string, Member>(body.members.map((m: Member) => [m.user_id, m]));
    expect(byId.get(t.users.ada)).toMatchObject({
      status: "Active",
      roles: [LEARNER],
      given_name: "Ada",
      email: "ada@example.com",
    });
    expect(byId.get(t.users.rita)).toMatchObject({ status: "Inactive", roles: [LEARNER] });
    expect(byId.get(t.users.grace)).toMatchObject({ status: "Active", roles: [INSTRUCTOR] });
    expect(byId.has(t.users.admin)).toBe(false);
    // Filtered by role, full URI or short name; a role nobody has here lists nobody.
    const ids = async (q: string) =>
      ((await (await call("GET", `${memberships(c.objectiveId)}?${q}`, { token: tk })).json()).members as Member[])
        .map((m) => m.user_id)
        .sort();
    expect(await ids("role=Instructor")).toEqual([t.users.grace]);
    expect(await ids(`role=${encodeURIComponent(LEARNER)}`)).toEqual([t.users.ada, t.users.rita].sort());
    expect(await ids("role=Mentor")).toEqual([]);
    expect(await ids(`rlid=${c.partId}`)).toEqual([...byId.keys()].sort());
  });

  it("pages with limit and a Link rel=next, and a rel=differences link lists only what changed since", async () => {
    const c = await course();
    const tk = await token(lab, LTI_SCOPE.memberships);
    const all = await (await call("GET", memberships(c.objectiveId), { token: tk })).json();
    const seen: string[] = [];
    let next: string | undefined = `${memberships(c.objectiveId)}?limit=1`;
    let differences = "";
    while (next) {
      const res = await call("GET", next, { token: tk });
      const page = await res.json();
      expect(page.members.length).toBeLessThanOrEqual(1);
      seen.push(...page.members.map((m: Member) => m.user_id));
      const rel = links(res);
      next = rel.next;
      differences = rel.differences!;
    }
    expect(seen).toEqual(all.members.map((m: Member) => m.user_id));
    expect(differences).toMatch(/[?&]since=/);
    // A learner enrols after that answer: the differences list them alone.
    const [newcomer] = await t.database.db
      .insert(s.users)
      .values({ tenantId, email: `newcomer-${crypto.randomUUID()}@example.com`, firstName: "New", lastName: "Comer" })
      .returning();
    await new Promise((r) => setTimeout(r, 5));
    await enrolUser(t.database.db, { tenantId, userId: newcomer!.id, objectiveId: c.objectiveId });
    const changed = await (await call("GET", differences.replace(/limit=1&?/, ""), { token: tk })).json();
    expect(changed.members.map((m: Member) => m.user_id)).toEqual([newcomer!.id]);
  });

  it("tells a tool at the default privacy level the members' ids, roles and status only", async () => {
    const c = await threeLinks();
    await enrolUser(t.database.db, { tenantId, userId: t.users.ada, objectiveId: c.objectiveId });
    const res = await call("GET", memberships(c.objectiveId), { token: await token(other, LTI_SCOPE.memberships) });
    expect(res.status).toBe(200);
    const body = await res.json();
    const ada = body.members.find((m: Member) => m.user_id === t.users.ada);
    expect(Object.keys(ada).sort()).toEqual(["roles", "status", "user_id"]);
    expect(JSON.stringify(body)).not.toMatch(/ada@example\.com|Lovelace|"Ada"/);
  });

  it("refuses a tool without a link in the course, another tool's resource link, and a token without the scope", async () => {
    const c = await course();
    expect(
      (await call("GET", memberships(c.objectiveId), { token: await token(other, LTI_SCOPE.memberships) })).status,
    ).toBe(403);
    const tk = await token(lab, LTI_SCOPE.memberships);
    expect((await call("GET", `${memberships(c.objectiveId)}?rlid=${crypto.randomUUID()}`, { token: tk })).status).toBe(
      404,
    );
    expect((await call("GET", memberships(crypto.randomUUID()), { token: tk })).status).toBe(404);
    expect((await call("GET", `${memberships(c.objectiveId)}?limit=0`, { token: tk })).status).toBe(400);
    expect((await call("GET", memberships(c.objectiveId), { token: await token(lab, LTI_SCOPE.score) })).status).toBe(
      403,
    );
  });
});
