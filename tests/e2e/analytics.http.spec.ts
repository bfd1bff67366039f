import { test, expect } from "./fixtures";

/**
 * Issue 16 item 8 over HTTP: the beacon endpoint takes batches of spec 7.1 events (APP_ENV test), drops
 * them for Do-Not-Track / Global Privacy Control, and refuses garbage with a 4xx, never a 500.
 */
test("the analytics beacon takes a batch, honours DNT and GPC, and refuses garbage", async ({ request }) => {
  const batch = JSON.stringify({ events: [{ name: "page_view", page: "/learn/open-catalog", props: {} }] });
  const headers = { "Content-Type": "text/plain;charset=UTF-8" };
  expect((await request.post("/learn/collect", { data: batch, headers })).status()).toBe(204);
  expect((await request.post("/learn/collect", { data: batch, headers: { ...headers, DNT: "1" } })).status()).toBe(204);
  expect(
    (await request.post("/learn/collect", { data: batch, headers: { ...headers, "Sec-GPC": "1" } })).status(),
  ).toBe(204);
  expect((await request.post("/learn/collect", { data: "{nope", headers })).status()).toBe(400);
  const unknown = JSON.stringify({ events: [{ name: "keystrokes", props: {} }] });
  expect((await request.post("/learn/collect", { data: unknown, headers })).status()).toBe(400);
  expect((await request.get("/learn/collect")).status()).toBe(405);
});
