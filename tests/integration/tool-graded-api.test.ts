import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createLtiCourse } from "../fixtures/lti";
import * as s from "../../api/db/schema";
import { ActivityWorkflowState } from "../../domain/vocabulary";
import type { ActivityTree } from "../../domain/contract/lifecycle";

/**
 * An activity graded by its LTI tool is finished by the tool's score, never by the learner —
 * the page offers no "Mark as done" and the API refuses one (decision 018: the API enforces the page's rules).
 */
let t: TestApi;
let tenantId: string;

beforeAll(async () => {
  t = await createTestApi({
    appUrl: "https://lms.example",
    lti: {
      tools: [
        {
          key: "lab",
          name: "Lab",
          version: "1.3",
          clientId: "lab-client",
          deploymentId: "lab-deployment",
          loginUrl: "https://lab.test/login",
          launchUrl: "https://lab.test/launch",
          jwksUrl: "https://lab.test/jwks",
          redirectUris: ["https://lab.test/launch"],
          domains: [],
        },
      ],
    },
  });
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(() => t.close());

const call = async (method: "GET" | "POST", path: string, body?: unknown) =>
  t.request(method, `/api/lms/v1/${path}`, { token: await t.token("ada"), body, headers: { Prefer: "respond-sync" } });

describe("an activity graded by its tool", () => {
  it("is marked in the tree, and a learner's finish is refused (409 gradedByTool) without changing it", async () => {
    const c = await createLtiCourse(t, tenantId, "lab");
    const tree = (await (await call("GET", `users/me/objective-workflows/${c.wfId}/activity`)).json()) as ActivityTree;
    const node = tree.nodes.find((n) => n.activityPathId === c.partId)!;
    expect(node.childActivity.gradedByTool).toBe(true);

    await call("POST", "start-activity-workflows", { objectiveWorkflowId: c.wfId, activityPartIds: [c.partId] });
    const [aw] = await t.database.db
      .select()
      .from(s.activityWorkflows)
      .where(eq(s.activityWorkflows.objectiveWorkflowId, c.wfId));
    const res = await call("POST", "finish-activity-workflows", {
      objectiveWorkflowId: c.wfId,
      activityWorkflowIds: [aw!.id],
    });
    expect(res.status).toBe(409);
    expect(JSON.stringify(await res.json())).toContain("gradedByTool");
    const [after] = await t.database.db.select().from(s.activityWorkflows).where(eq(s.activityWorkflows.id, aw!.id));
    expect(after!.state).toBe(ActivityWorkflowState.inProgress);
    expect(
      await t.database.db.select().from(s.activityRecords).where(eq(s.activityRecords.activityWorkflowId, aw!.id)),
    ).toEqual([]);
  });

  it("without LTI grading the learner marks it done as before", async () => {
    const c = await createLtiCourse(t, tenantId, "lab");
    await t.database.db.update(s.activities).set({ supportLtiGrading: false }).where(eq(s.activities.id, c.activityId));
    const tree = (await (await call("GET", `users/me/objective-workflows/${c.wfId}/activity`)).json()) as ActivityTree;
    expect(tree.nodes.find((n) => n.activityPathId === c.partId)!.childActivity.gradedByTool).toBe(false);
    await call("POST", "start-activity-workflows", { objectiveWorkflowId: c.wfId, activityPartIds: [c.partId] });
    const [aw] = await t.database.db
      .select()
      .from(s.activityWorkflows)
      .where(eq(s.activityWorkflows.objectiveWorkflowId, c.wfId));
    const res = await call("POST", "finish-activity-workflows", {
      objectiveWorkflowId: c.wfId,
      activityWorkflowIds: [aw!.id],
    });
    expect(res.status).toBeLessThan(300);
  });
});
