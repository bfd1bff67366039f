import { request as httpRequest } from "node:http";
import { test, expect } from "./fixtures";

/**
 * Issue 29 item 4: the front's early 403 for a cross-origin POST carried only Cache-Control. Every
 * answer the front gives before the app, the API or the provider runs — the cross-origin 403 (the app's
 * and the provider's), the 413 of a declared body, the 414 of a long address — carries the security
 * headers every page does. HTTP only (the "http" project).
 */
function send(base: URL, method: string, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const req = httpRequest({ host: base.hostname, port: base.port, method, path, headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("the front's early answers carry the security headers of every page", async ({ baseURL }) => {
  const base = new URL(baseURL!);
  const crossSite = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site", "Content-Length": "0" };
  // The app's pages send the origin alone to other sites; the provider's pages (its refusal is one, in
  // the visitor's language) send no referrer off their origin at all — stricter, never missing.
  const app = "strict-origin-when-cross-origin";
  const provider = "same-origin";
  const cases: [string, string, string, Record<string, string>, number, string][] = [
    ["a cross-origin POST to a page", "POST", "/learn/feedback", crossSite, 403, app],
    ["a cross-origin POST to the API", "POST", "/api/lms/v1/create-discussion-posts", crossSite, 403, app],
    [
      "a cross-origin POST to the provider's sign-out confirmation",
      "POST",
      "/idp/session/end/confirm",
      crossSite,
      403,
      provider,
    ],
    ["a body declared too large", "POST", "/learn/feedback", { "Content-Length": String(50 * 1024 * 1024) }, 413, app],
    ["an address too long", "GET", `/learn/courses?keyword=${"a".repeat(9000)}`, {}, 414, app],
  ];
  for (const [name, method, path, headers, status, referrerPolicy] of cases) {
    const res = await send(base, method, path, headers);
    expect(res.status, name).toBe(status);
    expect(res.headers["x-content-type-options"], name).toBe("nosniff");
    expect(res.headers["referrer-policy"], name).toBe(referrerPolicy);
    expect(String(res.headers["content-security-policy"]), name).toContain("frame-ancestors");
  }
});
