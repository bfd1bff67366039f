import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { and, eq } from "drizzle-orm";
import ltijs from "ltijs";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createLtiCourse } from "../fixtures/lti";
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

describe("a tool built with ltijs", () => {
  it("is launched by LTI 1.3 and its score, sent with ltijs's AGS client, completes the activity", async () => {
    const course = await createLtiCourse(t, tenantId, "ltijs-tool");
    const token = await t.token("ada");

    // The platform's resource link: the tool's third-party login initiation.
    const link = await t.request("POST", `/api/lms/v1/objective-workflows/${course.wfId}/resource-link`, {
      token,
      body: { activityPathId: course.partId },
      headers: { Prefer: "respond-sync" },
    });
    expect(link.status).toBe(200);
    const initiation = new URL((await link.json()).targetLinkUri);
    expect(initiation.origin).toBe(TOOL);

    // The tool answers with its authentication request (to the platform's authorize endpoint).
    const browser = jar();
    const login = await fetch(initiation, { redirect: "manual" });
    browser.keep(login);
    expect(login.status).toBe(302);
    const authUrl = new URL(login.headers.get("location")!);
    expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${APP}/learn/lti/authorize`);

    // The platform checks it and answers with the id_token form (what /learn/lti/authorize renders).
    const authorization = await t.request("POST", "/api/lms/v1/users/me/lti-authorizations", {
      token,
      body: Object.fromEntries(authUrl.searchParams),
      headers: { Prefer: "respond-sync" },
    });
    expect(authorization.status).toBe(200);
    const answer = (await authorization.json()) as { action: string; fields: Record<string, string> };
    expect(answer.action).toBe(`${TOOL}/`);

    // The browser posts the form to the tool; ltijs verifies the id_token with the platform's JWKS.
    const launch = await fetch(answer.action, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: browser.header() },
      body: new URLSearchParams(answer.fields),
    });
    browser.keep(launch);
    expect(launch.status, await launch.clone().text()).toBe(302);
    const app = await fetch(new URL(launch.headers.get("location")!, TOOL), {
      headers: { Cookie: browser.header() },
    });
    expect(await app.text()).toBe("launched");

    // ltijs got a token from the platform's token endpoint (its client assertion checked against the
    // tool's keys) and posted the Score: the activity has 8 of 10 and is finished.
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
});

interface LtijsToken {
  user: string;
  platformContext: { endpoint: { lineitem: string }; resource: { id: string } };
}
interface LtijsResponse {
  locals: { token: unknown };
  send(body: string): void;
}
