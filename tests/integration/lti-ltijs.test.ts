import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { and, eq } from "drizzle-orm";
import ltijs from "ltijs";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createLtiCourse } from "../fixtures/lti";
import { enrolUser } from "../fixtures/courses";
import { LtijsMemoryDb } from "../fixtures/ltijs-memory-db";
import * as s from "../../api/db/schema";

/**
 * Issue 14 ("checked by launching into LTI tools that the project does not contain, built with a widely
 * used LTI library"): a tool built with ltijs (IMS-certified LTI Advantage library), run over HTTP in
 * this test, launched from the platform by LTI 1.3, sending its score back with ltijs's own Assignment
 * and Grade Services client. Everything between the two goes over HTTP as between two servers: the
 * tool reads the platform's JWKS and token endpoint, the platform reads the tool's keys. The browser's
 * part (following redirects, posting the id_token form) is played by this test with a cookie jar.
 */
const lti = ltijs.Provider;
let t: TestApi;
let apiServer: Server;
let toolServer: Server;
let APP = "";
let TOOL = "";
let tenantId = "";
const connected: { user: string; resource: string; lineItem: string; scored: boolean }[] = [];
/** What the tool does in its onConnect (each test sets it); by default it posts 8 of 10. */
let onLaunch: ((token: LtijsToken, res: LtijsResponse) => Promise<void>) | null = null;

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  let handler: (request: Request) => Response | Promise<Response> = () => new Response(null, { status: 503 });
  apiServer = createServer(getRequestListener((request) => handler(request)));
  APP = await listen(apiServer);

  // The tool: ltijs in serverless mode, served by this test's HTTP server.
  lti.setup(
    "ltijs-test-encryption-key-0123456789",
    { plugin: new LtijsMemoryDb() },
    {
      appRoute: "/",
      loginRoute: "/login",
      keysetRoute: "/keys",
      devMode: true,
      cookies: { secure: false, sameSite: "" },
    },
  );
  lti.onConnect(async (token: LtijsToken, _req: unknown, res: LtijsResponse) => {
    if (onLaunch) return onLaunch(token, res);
    const lineItem = token.platformContext.endpoint.lineitem;
    const result = await lti.Grade.submitScore(res.locals.token, lineItem, {
      userId: token.user,
      scoreGiven: 8,
      scoreMaximum: 10,
      activityProgress: "Completed",
      gradingProgress: "FullyGraded",
    });
    connected.push({
      user: token.user,
      resource: token.platformContext.resource.id,
      lineItem,
      scored: Boolean(result),
    });
    res.send("launched");
  });
  await lti.deploy({ serverless: true, silent: true });
  toolServer = createServer(lti.app);
  TOOL = await listen(toolServer);

  t = await createTestApi({
    appUrl: APP,
    lti: {
      tools: [
        {
          key: "ltijs-tool",
          name: "A tool built with ltijs",
          version: "1.3",
          clientId: "ltijs-client",
          deploymentId: "ltijs-deployment",
          loginUrl: `${TOOL}/login`,
          launchUrl: `${TOOL}/`,
          jwksUrl: `${TOOL}/keys`,
          redirectUris: [`${TOOL}/`],
          domains: [TOOL],
        },
      ],
    },
  });
  handler = (request) => t.api.fetch(request);
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
  await lti.registerPlatform({
    url: APP,
    name: "Learner app",
    clientId: "ltijs-client",
    authenticationEndpoint: `${APP}/learn/lti/authorize`,
    accesstokenEndpoint: `${APP}/api/lti/v1/token`,
    authConfig: { method: "JWK_SET", key: `${APP}/api/lti/v1/jwks` },
  });
});

afterAll(async () => {
  await lti.close({ silent: true }).catch(() => {});
  await new Promise((resolve) => toolServer?.close(resolve));
  await new Promise((resolve) => apiServer?.close(resolve));
  await t?.close();
});

/** A browser's cookie jar for one origin, enough for the tool's state cookie. */
function jar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    keep: (res: Response) => {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const eq = pair!.indexOf("=");
        cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
      }
    },
  };
}

/**
 * The browser's part of a launch, played with a cookie jar: the platform's resource link → the tool's
 * login initiation → its authentication request → the platform's id_token → the form posted to the
 * tool → its redirect to its own page. Returns that page's text.
 */
async function launchAsAda(course: { wfId: string; partId: string }) {
  const token = await t.token("ada");
  const link = await t.request("POST", `/api/lms/v1/objective-workflows/${course.wfId}/resource-link`, {
    token,
    body: { activityPathId: course.partId },
    headers: { Prefer: "respond-sync" },
  });
  expect(link.status).toBe(200);
  const initiation = new URL((await link.json()).targetLinkUri);
  expect(initiation.origin).toBe(TOOL);
  const browser = jar();
  const login = await fetch(initiation, { redirect: "manual" });
  browser.keep(login);
  expect(login.status).toBe(302);
  const authUrl = new URL(login.headers.get("location")!);
  expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${APP}/learn/lti/authorize`);
  const authorization = await t.request("POST", "/api/lms/v1/users/me/lti-authorizations", {
    token,
    body: Object.fromEntries(authUrl.searchParams),
    headers: { Prefer: "respond-sync" },
  });
  expect(authorization.status).toBe(200);
  const answer = (await authorization.json()) as { action: string; fields: Record<string, string> };
  expect(answer.action).toBe(`${TOOL}/`);
  const launch = await fetch(answer.action, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: browser.header() },
    body: new URLSearchParams(answer.fields),
  });
  browser.keep(launch);
  expect(launch.status, await launch.clone().text()).toBe(302);
  const app = await fetch(new URL(launch.headers.get("location")!, TOOL), { headers: { Cookie: browser.header() } });
  return app.text();
}

describe("a tool built with ltijs", () => {
  it("is launched by LTI 1.3 and its score, sent with ltijs's AGS client, completes the activity", async () => {
    const course = await createLtiCourse(t, tenantId, "ltijs-tool");
    // Every hop over HTTP: ltijs verifies the id_token with the platform's JWKS, then (in onConnect)
    // gets a token from the platform's token endpoint (its client assertion checked against the tool's
    // keys) and posts the Score: the activity has 8 of 10 and is finished.
    expect(await launchAsAda(course)).toBe("launched");
    expect(connected).toEqual([
      {
        user: t.users.ada,
        resource: course.partId,
        lineItem: expect.stringContaining(`${APP}/api/lti/v1/`),
        scored: true,
      },
    ]);
    const [record] = await t.database.db
      .select()
      .from(s.activityRecords)
      .where(and(eq(s.activityRecords.userId, t.users.ada), eq(s.activityRecords.activityPartId, course.partId)));
    expect(record).toMatchObject({ score: 8, maxScore: 10 });
  });

  it("uses the line-items container, results and membership with ltijs's own service calls (issue 32 item 3)", async () => {
    const course = await createLtiCourse(t, tenantId, "ltijs-tool");
    await enrolUser(t.database.db, { tenantId, userId: t.users.rita, objectiveId: course.objectiveId });
    const seen: Record<string, unknown> = {};
    onLaunch = async (token, res) => {
      const Grade = lti.Grade;
      const lineitem = token.platformContext.endpoint.lineitem;
      // Line items: the resource link's own, then one the tool makes on its link, found by tag, updated.
      seen.own = (await Grade.getLineItems(token, { resourceLinkId: true })).lineItems;
      const made = await Grade.createLineItem(
        token,
        { label: "Bonus", scoreMaximum: 5, tag: "bonus" },
        { resourceLinkId: true },
      );
      seen.made = made;
      seen.tagged = (await Grade.getLineItems(token, { tag: "bonus" })).lineItems;
      seen.paged = await Grade.getLineItems(token, { limit: 1 });
      seen.updated = await Grade.updateLineItemById(token, String(made.id), {
        label: "Bonus (final)",
        scoreMaximum: 5,
        tag: "bonus",
        resourceLinkId: token.platformContext.resource.id,
      });
      // Scores on both, read back through the results service.
      const completed = { activityProgress: "Completed", gradingProgress: "FullyGraded" };
      await Grade.submitScore(token, String(made.id), {
        scoreGiven: 4,
        scoreMaximum: 5,
        comment: "Nice",
        ...completed,
      });
      await Grade.submitScore(token, lineitem, { scoreGiven: 6, scoreMaximum: 10, ...completed });
      seen.madeScores = (await Grade.getScores(token, String(made.id))).scores;
      seen.linkScores = (await Grade.getScores(token, lineitem, { userId: token.user })).scores;
      seen.deleted = await Grade.deleteLineItemById(token, String(made.id));
      seen.afterDelete = (await Grade.getLineItems(token)).lineItems;
      // Membership: every page (one member a page, ltijs follows rel=next), and by role.
      seen.members = await lti.NamesAndRoles.getMembers(token, { limit: 1, pages: false });
      seen.instructors = (await lti.NamesAndRoles.getMembers(token, { role: "Instructor" })).members;
      res.send("services used");
    };
    try {
      expect(await launchAsAda(course)).toBe("services used");
    } finally {
      onLaunch = null;
    }
    const lineItemUrl = `${APP}/api/lti/v1/grading/contexts/${course.objectiveId}/line-items`;
    expect(seen.own).toEqual([
      {
        id: `${lineItemUrl}/${course.partId}`,
        label: expect.any(String),
        scoreMaximum: 10,
        resourceLinkId: course.partId,
      },
    ]);
    const made = seen.made as { id: string };
    expect(made).toMatchObject({ label: "Bonus", scoreMaximum: 5, tag: "bonus", resourceLinkId: course.partId });
    expect(seen.tagged).toEqual([made]);
    expect(seen.paged).toMatchObject({
      lineItems: [seen.own && (seen.own as unknown[])[0]],
      next: `${lineItemUrl}?limit=1&page=2`,
    });
    expect(seen.updated).toEqual({ ...made, label: "Bonus (final)" });
    expect(seen.madeScores).toEqual([
      {
        id: `${made.id}/results/${t.users.ada}`,
        scoreOf: made.id,
        userId: t.users.ada,
        resultScore: 4,
        resultMaximum: 5,
        comment: "Nice",
      },
    ]);
    expect(seen.linkScores).toEqual([
      expect.objectContaining({ userId: t.users.ada, resultScore: 6, resultMaximum: 10 }),
    ]);
    expect(seen.deleted).toBe(true);
    expect(seen.afterDelete).toEqual(seen.own);
    const members = seen.members as {
      members: { user_id: string; roles: string[]; status: string }[];
      differences?: string;
    };
    const byId = new Map(members.members.map((m) => [m.user_id, m]));
    expect(byId.get(t.users.ada)).toMatchObject({ status: "Active", roles: [expect.stringMatching(/#Learner$/)] });
    expect(byId.get(t.users.rita)).toMatchObject({ status: "Active" });
    expect(byId.get(t.users.grace)?.roles).toEqual([expect.stringMatching(/#Instructor$/)]);
    expect(new Set(members.members.map((m) => m.user_id)).size).toBe(members.members.length);
    expect(members.differences).toMatch(/since=/);
    expect((seen.instructors as { user_id: string }[]).map((m) => m.user_id)).toEqual([t.users.grace]);
  });
});

interface LtijsToken {
  user: string;
  platformContext: { endpoint: { lineitem: string }; resource: { id: string } };
}
// (ltijs passes the id_token object to its service calls as it came.)
interface LtijsResponse {
  locals: { token: unknown };
  send(body: string): void;
}
