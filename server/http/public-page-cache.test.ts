import { describe, expect, it } from "vitest";
import { Hono } from "hono";
import { publicPageCache } from "./public-page-cache";

/** Issue 12 item 2: the public certificate page kept briefly by the HTTP front, each answer with a nonce of its own. */

function setup(headers: Record<string, string> = {}, status = 200) {
  let clock = 1_000_000;
  let renders = 0;
  const app = new Hono();
  app.use(
    "*",
    publicPageCache({ ttlMs: 10_000, matches: (p) => p.startsWith("/learn/certificate/"), now: () => clock }),
  );
  app.get("*", (c) => {
    renders++;
    const nonce = `nonce${renders}AAAAAAAAAAAAAAA==`;
    const html = `<!DOCTYPE html><html><body><p>Render ${renders} for ${c.req.header("accept-language") ?? "-"}</p><script nonce="${nonce}">1</script><link nonce="${nonce}"></body></html>`;
    return c.body(html, status as 200, {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "public, max-age=30",
      ETag: `W/"v${renders}"`,
      Vary: "Cookie, Accept-Language",
      "Content-Security-Policy": `script-src 'self' 'nonce-${nonce}'; style-src 'self' 'nonce-${nonce}'`,
      ...headers,
    });
  });
  const get = (path: string, h: Record<string, string> = {}) => app.request(path, { headers: h });
  return { get, renders: () => renders, advance: (ms: number) => (clock += ms) };
}

const nonceOf = (csp: string | null) => /'nonce-([^']+)'/.exec(csp ?? "")![1];

describe("publicPageCache", () => {
  it("answers anonymous requests from memory, each with a fresh nonce in the body and the CSP", async () => {
    const t = setup();
    const first = await t.get("/learn/certificate/LA-1");
    const firstBody = await first.text();
    const second = await t.get("/learn/certificate/LA-1");
    const body = await second.text();
    expect(t.renders()).toBe(1);
    expect(body).toContain("Render 1");
    const n1 = nonceOf(first.headers.get("content-security-policy"));
    const n2 = nonceOf(second.headers.get("content-security-policy"));
    expect(n2).not.toBe(n1);
    expect(second.headers.get("content-security-policy")).toBe(
      `script-src 'self' 'nonce-${n2}'; style-src 'self' 'nonce-${n2}'`,
    );
    expect(body).not.toContain(n1);
    expect(body.split(`nonce="${n2}"`)).toHaveLength(3);
    expect(firstBody).toContain(`nonce="${n1}"`);
    expect(second.headers.get("etag")).toBe('W/"v1"');
  });

  it("renders again after the TTL, and separately per address and Accept-Language", async () => {
    const t = setup();
    await t.get("/learn/certificate/LA-1");
    await t.get("/learn/certificate/LA-2");
    expect(await (await t.get("/learn/certificate/LA-1", { "Accept-Language": "de" })).text()).toContain("for de");
    expect(t.renders()).toBe(3);
    t.advance(10_001);
    expect(await (await t.get("/learn/certificate/LA-1")).text()).toContain("Render 4");
  });

  it("never serves or keeps a page for a request with a cookie or an Authorization header", async () => {
    const t = setup();
    await t.get("/learn/certificate/LA-1", { Cookie: "learn_session=x" });
    await t.get("/learn/certificate/LA-1", { Authorization: "Bearer x" });
    await t.get("/learn/certificate/LA-1");
    await t.get("/learn/certificate/LA-1", { Cookie: "learn_session=x" });
    expect(t.renders()).toBe(4);
  });

  it("keeps only public 200 pages that set no cookie", async () => {
    for (const [headers, status] of [
      [{ "Cache-Control": "private, no-store" }, 200],
      [{ "Cache-Control": "public, max-age=0" }, 200],
      [{ "Set-Cookie": "a=b" }, 200],
      [{}, 404],
    ] as const) {
      const t = setup(headers, status);
      await t.get("/learn/certificate/LA-1");
      await t.get("/learn/certificate/LA-1");
      expect(t.renders()).toBe(2);
    }
    const other = setup();
    await other.get("/learn/courses");
    await other.get("/learn/courses");
    expect(other.renders()).toBe(2);
  });

  it("answers If-None-Match with the kept ETag with 304, without a body or a CSP", async () => {
    const t = setup();
    await t.get("/learn/certificate/LA-1");
    const res = await t.get("/learn/certificate/LA-1", { "If-None-Match": 'W/"v1"' });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe("");
    expect(res.headers.get("content-security-policy")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("public, max-age=30");
    expect(t.renders()).toBe(1);
  });
});
