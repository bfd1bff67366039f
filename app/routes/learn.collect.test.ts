import { describe, expect, it } from "vitest";
import { testAppConfig } from "../../tests/fixtures/app-config";
import { RouterContextProvider } from "react-router";
import { appLoadContext } from "~/services/config.server";
import { requestContext } from "~/services/request.server";
import { action } from "./learn.collect";

/** Issue 16 item 8: analytics only where APP_ENV is test or prod — in development the beacon is 404. */
function post(
  appEnv: "dev" | "test" | "prod",
  headers: Record<string, string> = {},
  answer: () => Response = () => Response.json({ accepted: 1 }),
) {
  const calls: string[] = [];
  const config = testAppConfig({ APP_ENV: appEnv });
  const context = new RouterContextProvider();
  context.set(appLoadContext, {
    config,
    lmsTransport: (req) => {
      calls.push(`${req.method} ${new URL(req.url).pathname}`);
      return answer();
    },
    sessions: null as never,
  });
  context.set(requestContext, { session: async () => null } as never);
  const request = new Request("http://localhost:3000/learn/collect", {
    method: "POST",
    headers: { "Content-Type": "text/plain", ...headers },
    body: JSON.stringify({ events: [{ name: "page_view", page: "/learn", props: {} }] }),
  });
  return { calls, answer: action({ request, context, params: {} } as never) };
}

describe("the analytics beacon by APP_ENV (spec 9, decision 029)", () => {
  it("is off in development: 404, nothing sent on", async () => {
    const { calls, answer } = post("dev");
    expect((await answer).status).toBe(404);
    expect(calls).toEqual([]);
  });
  it.each(["test", "prod"] as const)("in %s sends the batch on to the collector", async (env) => {
    const { calls, answer } = post(env);
    expect((await answer).status).toBe(204);
    expect(calls).toEqual(["POST /api/analytics/v1/events"]);
  });
  it("drops the batch for Do-Not-Track and Global Privacy Control", async () => {
    for (const headers of [{ DNT: "1" }, { "Sec-GPC": "1" }] as Record<string, string>[]) {
      const { calls, answer } = post("prod", headers);
      expect((await answer).status).toBe(204);
      expect(calls).toEqual([]);
    }
  });
  it("says the collector's 429 with its Retry-After (issue 29 item 3)", async () => {
    const { answer } = post("prod", {}, () =>
      Response.json(
        { status: 429, errors: { "": [{ code: "tooManyRequests", message: "…" }] } },
        { status: 429, headers: { "Retry-After": "17" } },
      ),
    );
    const res = await answer;
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("17");
  });
});
