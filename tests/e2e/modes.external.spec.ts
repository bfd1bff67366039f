import { test, expect } from "./fixtures";

/**
 * Two more configuration modes of the README, run by playwright.external.config.ts:
 * - OIDC_ISSUER at another origin's provider, with this app's own embedded LMS API (no LMS_API_URL):
 *   the API finds the signed-in person by the token's issuer + subject (decision 049); on her first
 *   sign-in an account with her address is linked — the provider says the address is verified and this
 *   app allows linking (OIDC_EMAIL_LINKING=verified) — or, for a person it does not know, made (a learner);
 * - an LMS API that does not answer: the app says "Config couldn't be loaded" (spec 7.1, 8) and its
 *   configuration endpoint answers 503, instead of pretending all is well.
 * The demo learner ada exists in both processes' databases (same address, different ids).
 */
const PROVIDER_ONLY = process.env.E2E_PROVIDER_ONLY_URL ?? "";
const API_DOWN = process.env.E2E_API_DOWN_URL ?? "";
const OTHER = process.env.E2E_API_URL ?? "";

test("an external provider with the embedded API: ada signs in there and sees her own courses here", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto(`${PROVIDER_ONLY}/learn/courses`);
  await expect(page.getByRole("heading", { name: /sign in/i })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(OTHER);
  await page.getByLabel(/e-mail/i).fill("ada@example.com");
  await page.getByLabel(/password/i).fill("demo");
  await page.getByRole("button", { name: /sign in/i }).click();
  await expect(page).toHaveURL(`${PROVIDER_ONLY}/learn/courses`);
  await expect(page.getByRole("heading", { level: 1, name: "My courses" })).toBeVisible();
  await expect(page.locator("details.user-menu summary")).toContainText("Ada Lovelace");
  // Her enrolments in this app's database.
  await expect(page.getByRole("heading", { name: "Git Workflows for Teams", exact: true })).toBeVisible();
});

test("an external provider with the embedded API: a person this app has never seen is made a learner at her first sign-in, no redirect loop", async ({
  page,
  newLearner,
}) => {
  test.setTimeout(90_000);
  // Made on the other process only: its provider knows her, this app's database does not.
  const stranger = await newLearner({ firstName: "Mae", lastName: "Jemison" });
  const redirects: string[] = [];
  page.on("response", (r) => {
    if (r.status() >= 300 && r.status() < 400) redirects.push(r.url());
  });
  await page.goto(`${PROVIDER_ONLY}/learn/courses`);
  await page.getByLabel(/e-mail/i).fill(stranger.email);
  await page.getByLabel(/password/i).fill(stranger.password);
  await page.getByRole("button", { name: /sign in/i }).click();
  await expect(page).toHaveURL(`${PROVIDER_ONLY}/learn/courses`);
  await expect(page.getByRole("heading", { level: 1, name: "My courses" })).toBeVisible();
  await expect(page.locator("details.user-menu summary")).toContainText("Mae Jemison");
  // Sign-in's own redirects (the app, the provider's authorization and interaction, the callback: 6 here),
  // not a loop's (Chromium gives up at 20 with ERR_TOO_MANY_REDIRECTS and shows no page).
  expect(redirects.length).toBeLessThanOrEqual(8);
});

test("an LMS API that does not answer: 'Config couldn't be loaded', and the configuration says 503", async ({
  page,
  request,
  consoleErrors,
}) => {
  const config = await request.get(`${API_DOWN}/config-ui/config.json`);
  expect(config.status()).toBe(503);
  expect(config.headers()["cache-control"]).toBe("no-store");

  const response = await page.goto(`${API_DOWN}/learn/open-catalog`);
  expect(response?.status()).toBeGreaterThanOrEqual(500);
  await expect(page.getByRole("alert").filter({ hasText: "Config couldn't be loaded" })).toBeVisible();
  // The page still has its shell, with the default portal name, and says what went wrong.
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // The browser reports the failed document itself; nothing else may fail.
  consoleErrors.splice(
    0,
    consoleErrors.length,
    ...consoleErrors.filter((e) => !/Failed to load resource: the server responded with a status of 5\d\d/.test(e)),
  );
});
