import { test, expect, expectAccessible, finishActivities, type Learner } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * The configuration modes of the README, run by playwright.external.config.ts: this app
 * with OIDC_ISSUER at another origin's provider and LMS_API_URL at another process's API over HTTP.
 * Sign-in, sign-out, signing in again, the open catalog's enrolment on a cross-site return, and the
 * core journey (catalog, enrol, start, content, submit, results). Each test has a learner of its own,
 * made on the other process (decision 014).
 */
const OTHER = process.env.E2E_API_URL ?? "";
const signInHeading = (page: Page) => page.getByRole("heading", { name: /sign in/i });

/** The provider's sign-in form, on the other origin. */
async function signInAtProvider(page: Page, learner: Learner) {
  await expect(signInHeading(page)).toBeVisible();
  expect(new URL(page.url()).origin).toBe(OTHER);
  await page.getByLabel(/e-mail/i).fill(learner.email);
  await page.getByLabel(/password/i).fill(learner.password);
  await page.getByRole("button", { name: /sign in/i }).click();
}

test.describe("an external identity provider and an external LMS API", () => {
  test.describe.configure({ timeout: 90_000 });

  test("sign in at the other origin, sign out of both, and signing in again asks for the password", async ({
    page,
    learner,
  }) => {
    await page.goto("/learn/courses");
    await signInAtProvider(page, learner);
    await expect(page).toHaveURL(/localhost:\d+\/learn\/courses/);
    await expect(page.locator("details.user-menu summary")).toContainText(learner.name);

    // Losing the app's session is a new sign-in at the provider, which still knows the learner.
    await page.context().clearCookies({ name: "learn_session" });
    await page.goto("/learn/courses");
    await expect(page.locator("details.user-menu summary")).toContainText(learner.name);

    await page.locator("details.user-menu > summary").click();
    await page.getByRole("button", { name: "Sign out" }).click();
    // Signing out ends on "You are signed out" (the provider may not know that address: then elsewhere).
    await expect(
      signInHeading(page)
        .or(page.getByRole("heading", { name: "Catalog" }))
        .or(page.getByRole("heading", { name: "You are signed out" })),
    ).toBeVisible();
    await page.goto("/learn/courses");
    await expect(signInHeading(page)).toBeVisible();
    expect(new URL(page.url()).origin).toBe(OTHER);
  });

  test("'Sign in and add to my courses' from the open catalog enrols on the cross-site return", async ({
    page,
    learner,
  }) => {
    await page.goto("/learn/open-catalog");
    await page
      .locator(".card-grid > li.course-card")
      .filter({ has: page.getByRole("heading", { name: "SQL Fundamentals", exact: true }) })
      .getByRole("link")
      .click();
    await page.getByRole("link", { name: "Sign in and add to my courses" }).click();
    await signInAtProvider(page, learner);
    await expect(page).toHaveURL(/localhost:\d+\/learn\/courses$/);
    await expect(
      page.getByRole("region", { name: "Notifications" }).getByText("“SQL Fundamentals” was added to your courses."),
    ).toBeVisible();
    await expect(
      page
        .locator(".card-grid > li.course-card")
        .filter({ has: page.getByRole("heading", { name: "SQL Fundamentals", exact: true }) }),
    ).toBeVisible();
  });

  test("the core journey: catalog, enrol, start, content, submit, results", async ({ page, newLearner, jsEnabled }) => {
    const learner = await newLearner({});
    // The catalog is a public path (a visitor sees the open catalog): sign in through /oidc/login.
    await page.goto(`/oidc/login?redirectUrl=${encodeURIComponent("/learn/catalog?keyword=git")}`);
    await signInAtProvider(page, learner);
    await expect(page.getByRole("heading", { level: 1, name: "Catalog" })).toBeVisible();
    await page.getByRole("link", { name: "Git Workflows for Teams", exact: true }).first().click();
    await page.getByRole("button", { name: "Add to my courses" }).click();
    await expect(page).toHaveURL(/\/learn\/courses$/);
    await expect(
      page
        .getByRole("region", { name: "Notifications" })
        .getByText("“Git Workflows for Teams” was added to your courses."),
    ).toBeVisible();
    await page
      .locator(".card-grid > li.course-card")
      .filter({ has: page.getByRole("heading", { name: "Git Workflows for Teams", exact: true }) })
      .getByRole("link")
      .first()
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "Git Workflows for Teams" })).toBeVisible();
    await expectAccessible(page);

    await page.getByRole("button", { name: "Start", exact: true }).click();
    await expect(page).toHaveURL(/\/view\/content/);
    await expect(page.getByRole("navigation", { name: "Table of contents" })).toBeVisible();
    await finishActivities(page, 2);

    await page.getByRole("link", { name: "Submit the course" }).click();
    if (jsEnabled) await expect(page.getByRole("dialog", { name: "Submit your results?" })).toBeVisible();
    // The graded lab is left undone: the confirmation asks to accept a course not passed.
    await page.getByRole("checkbox", { name: "Yes, submit and record the course as not passed" }).check();
    await page.getByRole("button", { name: "Submit", exact: true }).click();
    await expect(page.getByText(/Your results were submitted/)).toBeVisible();
    const results = page.getByRole("region", { name: "Results" });
    await expect(results.getByText("Finished")).toBeVisible();
    await expect(results.locator(".score")).toHaveText(/\d+%/);
  });
});
