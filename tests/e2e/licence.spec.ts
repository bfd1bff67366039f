import { test, expect, login, expectAccessible } from "./fixtures";

/** The browser reports every 501 document as a failed load: expected here, anything else is not. */
function dropExpected501s(errors: string[]) {
  const rest = errors.filter((e) => !/status of 501 \(Not Implemented\)/.test(e));
  errors.splice(0, errors.length, ...rest);
}

/**
 * Spec 2.10 / 3: licensed features gate parts of the product. A learner whose tenant's licence does
 * not include the catalog and the calendar finds no entry for them, and their addresses are the 501
 * page ("Feature is not implemented") in the learner's language — not a missing page.
 */
test.use({ learnerRecipe: { features: { catalog: false, calendar: false } } });

test(
  "a feature outside the licence: no menu entry, and its address is the 501 page",
  { tag: "@js-only" },
  async ({ page, learner, consoleErrors }) => {
    await login(page, learner, "/learn/courses");
    const nav = page.getByRole("navigation", { name: "Main navigation" }).last();
    await expect(nav.getByRole("link", { name: "Courses" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Catalog" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Calendar" })).toHaveCount(0);

    for (const path of [
      "/learn/calendar",
      "/learn/calendar/agenda",
      "/learn/catalog",
      "/learn/catalog?keyword=python",
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(501);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Feature is not implemented");
      await expect(page.getByRole("link", { name: "Go to My courses" })).toBeVisible();
      await expect(page).toHaveTitle(/^Feature is not implemented \| /);
    }
    await expectAccessible(page);
    await page.getByRole("link", { name: "Go to My courses" }).click();
    // The learner app's root: the dashboard of this tenant.
    await expect(page).toHaveURL(/\/learn$/);
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Feature is not implemented");
    dropExpected501s(consoleErrors);
  },
);

test(
  "the 501 page speaks the learner's language (Arabic, right to left)",
  { tag: "@js-only" },
  async ({ page, learner, baseURL, consoleErrors }) => {
    await login(page, learner, "/learn/courses");
    await page
      .context()
      .addCookies([
        { name: "lng", value: encodeURIComponent(Buffer.from(JSON.stringify("ar")).toString("base64")), url: baseURL! },
      ]);
    const response = await page.goto("/learn/calendar");
    expect(response?.status()).toBe(501);
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("الميزة غير مُنفّذة");
    await expect(page).toHaveTitle(/^الميزة غير مُنفّذة \| /);
    await expectAccessible(page);
    dropExpected501s(consoleErrors);
  },
);

test.describe("a tenant without the dashboard (issue 13)", () => {
  test.use({ learnerRecipe: { features: { dashboard: false } } });

  test(
    "the learner app's root is My courses, the query kept, and the menu has no dashboard",
    { tag: "@js-only" },
    async ({ page, learner }) => {
      await login(page, learner, "/learn/courses");
      await page.goto("/learn?keyword=python");
      await expect(page).toHaveURL(/\/learn\/courses\?keyword=python$/);
      await expect(page.getByRole("heading", { level: 1, name: "My courses" })).toBeVisible();
      const nav = page.getByRole("navigation", { name: "Main navigation" }).last();
      await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
      await expect(nav.getByRole("link", { name: "Catalog" })).toBeVisible();
    },
  );
});
