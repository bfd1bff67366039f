import routes from "../../app/routes";
import { test, expect, login } from "./fixtures";
import {
  badRequests,
  describeRequest,
  FUZZ_SEED,
  STACK_TRACE,
  type BadRequest,
  type RouteTemplate,
} from "../fixtures/bad-requests";

/**
 * Issue 17 item 6 (decision 018): generated bad requests over real HTTP against the started server —
 * every route of `app/routes.ts` (documents and their `.data` twins) and every path of the OpenAPI
 * document, signed in (a learner of its own, signed in through the provider's form) and not. Any 5xx,
 * any stack trace in a body fails, with the requests that caused it. Runs in the `http` project only
 * (no page is involved past the sign-in, so once is enough).
 */

type RouteEntry = { path?: string; index?: boolean; children?: RouteEntry[] };

/** Every URL template of the route config, as the router sees them. */
function appTemplates(entries: readonly RouteEntry[]): string[] {
  return entries.flatMap((entry) => [
    ...(entry.path ? [`/${entry.path}`] : []),
    ...(entry.index ? ["/learn"] : []),
    ...appTemplates(entry.children ?? []),
  ]);
}

const COUNT = 640;
const CONCURRENCY = 4;

test.use({ learnerRecipe: { like: "ada" } });

test(`${COUNT} garbled requests to every route and API path never give a 5xx or a stack trace (seed ${FUZZ_SEED})`, async ({
  page,
  learner,
  baseURL,
}) => {
  test.setTimeout(150_000);
  await login(page, learner, "/learn/courses");
  await expect(page.locator("main")).toBeVisible();
  const cookies = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const origin = new URL(baseURL!).origin;
  // Real ids of this learner's courses among the garbage, so some requests reach deep into the handlers.
  const ids = [
    ...new Set((await page.content()).match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g)),
  ];

  const doc = (await (await fetch(`${origin}/api/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  // /learn/simulate-error throws on purpose (spec 2.1): its 500 is the point of it.
  const app = [...new Set(appTemplates(routes as RouteEntry[]))].filter((path) => path !== "/learn/simulate-error");
  const templates: RouteTemplate[] = [
    ...app.map((path) => ({ path, methods: ["GET", "POST"] })),
    ...app.filter((path) => !path.includes("*")).map((path) => ({ path: `${path}.data`, methods: ["GET", "POST"] })),
    // One template per operation: the document lists every route of the API (decision 034).
    ...Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((m) => ({ path, methods: [m.toUpperCase()] })),
    ),
  ];
  expect(templates.length).toBeLessThanOrEqual(COUNT);
  expect(app.length).toBeGreaterThan(25);
  // The findings' own requests first (issue 17 item 6), then the generated ones.
  const course = ids[0] ?? "00000000-0000-4000-8000-000000000000";
  const multipart = { "content-type": "multipart/form-data; boundary=x", origin };
  const known: BadRequest[] = [
    { method: "GET", target: "/learn/open-catalog?page=50000", headers: {}, signedIn: false },
    { method: "GET", target: "/learn/open-catalog?keyword=%00", headers: {}, signedIn: false },
    {
      method: "GET",
      target: "/api/lms/v1/public/open-catalog/objectives/query?search=%00",
      headers: {},
      signedIn: false,
    },
    {
      method: "GET",
      target: "/api/lms/v1/public/open-catalog/objectives/query?domain=%00",
      headers: {},
      signedIn: false,
    },
    { method: "GET", target: "/learn/courses?keyword=a%01b", headers: {}, signedIn: true },
    { method: "GET", target: "/learn/courses?keyword=x%7Fy", headers: {}, signedIn: true },
    { method: "POST", target: `/learn/courses/${course}`, headers: multipart, body: "--y\r\n", signedIn: true },
    { method: "POST", target: `/learn/courses/${course}.data`, headers: multipart, body: "--x\r\nbad", signedIn: true },
    {
      method: "POST",
      target: `/learn/courses/${course}/view/content`,
      headers: { "content-type": "application/json", origin },
      body: '{"intent":',
      signedIn: true,
    },
    { method: "GET", target: "/oidc/login", headers: { cookie: "lng=%" }, signedIn: false },
    { method: "GET", target: "/learn", headers: { cookie: "lng=%" }, signedIn: false },
    // Issue 29 item 4: CR/LF in a redirect target was an invalid Location header, a 500.
    ...["/learn/browser-alert", "/learn/feedback", "/learn/language"].flatMap((target) =>
      ["/learn\r\nSet-Cookie: x=1", "/\t/evil.example", "/learn%0d%0aX: y"].map((returnTo): BadRequest => ({
        method: "POST",
        target,
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: new URLSearchParams({
          intent: target.endsWith("alert") ? "dismissBrowserAlert" : "feedback",
          lng: "de",
          returnTo,
          id: crypto.randomUUID(),
          grade: "5",
        }).toString(),
        signedIn: target !== "/learn/browser-alert",
      })),
    ),
  ];
  const requests = [...known, ...badRequests({ templates, count: COUNT, ids, origin })];

  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < requests.length; index = next++) {
      const bad = requests[index];
      const headers = new Headers(bad.headers);
      if (bad.signedIn) headers.set("cookie", [cookies, bad.headers.cookie].filter(Boolean).join("; "));
      try {
        const response = await fetch(`${origin}${bad.target}`, {
          method: bad.method,
          headers,
          body: bad.body,
          redirect: "manual",
          // A request left unanswered is a finding of its own, not a hung test.
          signal: AbortSignal.timeout(20_000),
        });
        // A live stream (the chat's events) stays open by design: its status is the answer.
        let text = "";
        if (response.headers.get("content-type")?.includes("text/event-stream")) await response.body?.cancel();
        else text = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500 || STACK_TRACE.test(text))
          failures.push(`${describeRequest(bad, index)} → ${response.status} ${text.slice(0, 300)}`);
      } catch (error) {
        // The server may refuse a request line outright (an unknown method): a closed connection is no 5xx.
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
        if (!/fetch failed|other side closed|ECONNRESET/.test(String(error)))
          failures.push(`${describeRequest(bad, index)} → ${String(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  test.info().annotations.push({ type: "statuses", description: JSON.stringify([...statuses]) });
  expect(failures).toEqual([]);
  expect([...statuses.keys()].some((status) => status >= 200 && status < 300)).toBe(true);
  expect([...statuses.keys()].some((status) => status >= 400 && status < 500)).toBe(true);
});
