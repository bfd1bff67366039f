import { request as httpRequest } from "node:http";
import { test, expect } from "./fixtures";

/**
 * Issue 29 item 4: the public certificate page answered 500 ("LmsError: HTTP 429") once the lookup
 * limit tripped. Now the API's 429 is the app's: the 429 page with Retry-After, in the visitor's
 * language, for the page, its data request and its downloads. The requests come from a loopback
 * address of their own (127.0.0.29), so the limit they trip (per address, five minutes) is not the
 * other tests'. HTTP only (the "http" project).
 */

const ADDRESS = "127.0.0.29";

/** A GET from ADDRESS, with the Host of APP_URL (so that the front does not send it to APP_URL's host first). */
function get(base: URL, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(
        {
          host: base.hostname,
          port: base.port,
          path,
          localAddress: ADDRESS,
          // German, chosen with the language cookie (its value is React Router's: base64 of a JSON string).
          headers: { Host: base.host, Cookie: `lng=${encodeURIComponent(btoa(JSON.stringify("de")))}`, ...headers },
          agent: false,
        },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on("error", reject);
      req.end();
    },
  );
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** A certificate number nobody holds (each a new one: no cache answers for the API). */
const unknownNumber = () =>
  `TMR-${Array.from({ length: 16 }, () => CROCKFORD[Math.floor(Math.random() * 32)]).join("")}`;

test("the public certificate page past the lookup limit: the 429 page in German with Retry-After, never a 500", async ({
  baseURL,
}) => {
  test.setTimeout(90_000);
  const base = new URL(baseURL!);
  // The limit is 60 lookups a minute per address (api/public-lookups.ts): unknown numbers count too.
  let first429: Awaited<ReturnType<typeof get>> | null = null;
  for (let i = 0; i < 70 && !first429; i++) {
    const res = await get(base, `/learn/certificate/${unknownNumber()}`);
    expect(res.status, res.body.slice(0, 300)).not.toBe(500);
    if (res.status === 429) first429 = res;
    else expect(res.status).toBe(404);
  }
  expect(first429, "the lookup limit trips within 70 lookups").not.toBeNull();
  const page = first429!;
  expect(Number(page.headers["retry-after"])).toBeGreaterThan(0);
  expect(page.headers["content-type"]).toContain("text/html");
  expect(page.body).toContain('lang="de');
  expect(page.body).toContain("Zu viele Anfragen");
  expect(page.body).toMatch(new RegExp(`in ${page.headers["retry-after"]} Sekunden`));

  // Its data request (a client-side navigation), and the share form's download.
  const data = await get(base, `/learn/certificate/${unknownNumber()}.data`);
  expect(data.status).toBe(429);
  const download = await get(base, `/learn/certificate/${unknownNumber()}/download/pdf`);
  expect(download.status).toBe(429);
  expect(Number(download.headers["retry-after"])).toBeGreaterThan(0);
  expect(download.headers["content-language"]).toBe("de");
  expect(download.body).toContain("Zu viele Anfragen");
});
