import { test, expect, login, expectAccessible } from "./fixtures";

/**
 * Spec 2.11: a browser other than desktop Chrome, Safari, Edge or mobile Chrome, Safari is told which
 * are supported — decided on the server from the user agent, so it shows without JavaScript; dismissed
 * once, it stays away (a cookie).
 */
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const ALERT = /Your browser is not supported/;

test.describe("an unsupported browser", () => {
  test.use({ userAgent: FIREFOX });

  test("sees the alert naming the supported browsers, dismisses it, and it stays dismissed", async ({
    page,
    learner,
  }) => {
    await login(page, learner, "/learn/courses");
    const alert = page.getByRole("alert").filter({ hasText: ALERT });
    await expect(alert).toContainText("Chrome, Safari or Edge");
    await expectAccessible(page);
    await alert.getByRole("button", { name: "Dismiss" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/learn\/courses$/);
    await expect(page.getByText(ALERT)).toHaveCount(0);
    await page.goto("/learn/catalog");
    await expect(page.getByText(ALERT)).toHaveCount(0);
  });
});

test("a supported browser (desktop Chrome) sees no alert", { tag: "@js-only" }, async ({ page, learner }) => {
  await login(page, learner, "/learn/courses");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText(ALERT)).toHaveCount(0);
});
