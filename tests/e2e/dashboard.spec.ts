import type { Page } from "@playwright/test";
import { test, expect, login, expectAccessible, expectNoReact, type Learner } from "./fixtures";

/**
 * A brand-new account's first sign-in lands on My courses with 'account created' (spec 2.4); from then
 * on /learn is the dashboard (a returning learner lands there directly).
 */
async function openDashboard(page: Page, learner: Learner) {
  await login(page, learner);
  await expect(page.locator("details.user-menu")).toBeVisible();
  await page.goto("/learn");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
}

/** The learner dashboard at /learn, as a learner like ada (every section filled) and a new one. */

const SECTIONS = [
  "Continue learning",
  "Due soon and overdue",
  "Questions to answer",
  "Mandatory, not started",
  "Waiting for results",
  "Recent results and certificates",
  "Upcoming events",
];

test.describe("dashboard of a learner like ada", () => {
  test.use({ learnerRecipe: { like: "ada" } });

  test("the dashboard: counts, every section with its items and links", async ({ page, learner, jsEnabled }) => {
    await openDashboard(page, learner);
    await expect(page).toHaveURL(/\/learn$/);
    if (!jsEnabled) await expectNoReact(page);
    for (const name of SECTIONS) await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
    const section = (name: string) => page.getByRole("region", { name: new RegExp(`^${name}`) });

    // Counts and a progress summary at the top.
    await expect(page.getByRole("link", { name: /^\d+ Courses$/ })).toBeVisible();
    await expect(page.getByLabel(/Average progress of your courses in progress: \d+%/)).toBeVisible();

    const cont = section("Continue learning");
    await expect(cont.getByRole("link", { name: "Python for Data Analysis" })).toBeVisible();
    await expect(cont.getByRole("link", { name: /Arbeitssicherheit im Büro/ })).toBeVisible();
    // The SCORM course she started (its package resumes where she left it).
    await expect(cont.getByRole("link", { name: "Anti-Bribery and Corruption" })).toBeVisible();

    const due = section("Due soon and overdue");
    const overdue = due.getByRole("listitem").filter({ hasText: "Anti-Bribery and Corruption" });
    await expect(overdue).toContainText("Overdue");
    await expect(due.getByRole("listitem").filter({ hasText: "Information Security Awareness 2026" })).toContainText(
      "Course due",
    );

    // The reinforcement questions due and not answered, each with the e-mail's answer links.
    const questions = section("Questions to answer");
    await expect(questions.getByRole("heading", { level: 2 })).toHaveText("Questions to answer (4)");
    const question = questions.getByRole("listitem").filter({ hasText: "What is the type of the value 3 / 2" });
    await expect(question.getByRole("list", { name: "Choose your answer" }).getByRole("link")).toHaveText([
      "int",
      "float",
      "str",
      "Fraction",
    ]);

    await expect(section("Mandatory, not started").getByRole("link")).toContainText([
      "Information Security Awareness 2026",
    ]);
    const waiting = section("Waiting for results");
    await expect(waiting.getByRole("link", { name: "Data Visualisation with D3.js" })).toBeVisible();
    await expect(waiting.getByRole("link", { name: "Capstone Project: Analytics Portfolio" })).toBeVisible();

    // Spec 4.7: a result revealed only next week says so and shows no score.
    const results = section("Recent results and certificates");
    const cyber = results.getByRole("listitem").filter({ hasText: "Cyber Security Certification Exam" });
    await expect(cyber).toContainText("Result not shown yet");
    await expect(cyber).not.toContainText("Score");
    const sql = results.getByRole("listitem").filter({ hasText: "SQL Fundamentals" });
    await expect(sql.getByRole("link", { name: /^Certificate LA(-[0-9A-Z]{4}){4}/ })).toBeVisible();

    const events = section("Upcoming events");
    await expect(events.getByRole("link", { name: /Live Q&A with the instructors/ }).first()).toBeVisible();
    await expect(events.getByRole("link", { name: /Join online/ })).toHaveAttribute(
      "href",
      "https://meet.example/py-101-qa",
    );
    await expectAccessible(page);
  });

  test(
    "continue learning opens the course where the learner left off",
    { tag: "@js-only" },
    async ({ page, learner }) => {
      await openDashboard(page, learner);
      await page
        .getByRole("region", { name: /^Continue learning/ })
        .getByRole("link", { name: "Python for Data Analysis" })
        .click();
      await expect(page).toHaveURL(/\/learn\/courses\/[0-9a-f-]{36}\/view\/content/);
      await expect(page.getByRole("navigation", { name: "Table of contents" })).toBeVisible();
    },
  );

  test("an upcoming event opens its activity", { tag: "@js-only" }, async ({ page, learner }) => {
    await openDashboard(page, learner);
    await page
      .getByRole("region", { name: /^Upcoming events/ })
      .getByRole("link", { name: /Live Q&A with the instructors/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/view\/content\?activityPathId=[0-9a-f-]{36}/);
    await expect(page.getByRole("heading", { name: "Live Q&A with the instructors" }).first()).toBeVisible();
  });

  test("its links: with JavaScript in the app (prefetch on hover, no reload), a count's link to its section is the browser's; without it plain links", async ({
    page,
    learner,
    jsEnabled,
  }) => {
    await openDashboard(page, learner);
    // A marker on this document: it survives only a navigation inside the app (decision 045).
    const mark = () => page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    const sameDocument = () => page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument === true);
    await mark();

    // A count whose link is a section of this page: the browser's own jump, with or without JavaScript.
    await page.evaluate(() =>
      window.addEventListener("hashchange", () => Object.assign(window, { __jumped: true }), { once: true }),
    );
    await page.getByRole("link", { name: /^\d+ Overdue$/ }).click();
    await expect(page).toHaveURL(/\/learn#dash-due$/);
    expect(await sameDocument(), "a link within the page keeps the document").toBe(true);
    // The browser's jump (a router navigation would push the URL without a hashchange).
    if (jsEnabled)
      await expect.poll(() => page.evaluate(() => (window as { __jumped?: boolean }).__jumped === true)).toBe(true);

    const mandatory = page
      .getByRole("region", { name: /^Mandatory, not started/ })
      .getByRole("link", { name: "Information Security Awareness 2026" });
    const href = (await mandatory.getAttribute("href"))!;
    if (jsEnabled) {
      // A rest on the link prefetches the course page's data, as <Link prefetch="intent"> does.
      const prefetched = page.waitForRequest((r) => r.url().includes(`${href}.data`));
      await mandatory.hover();
      await prefetched;
    }
    await mandatory.click();
    await expect(page.getByRole("heading", { level: 1, name: "Information Security Awareness 2026" })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    expect(await sameDocument(), jsEnabled ? "a click navigates inside the app" : "a click loads the page").toBe(
      jsEnabled,
    );

    // The keyboard: Enter on a focused item of a calendar section.
    await page.goto("/learn");
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await mark();
    await page
      .getByRole("region", { name: /^Upcoming events/ })
      .getByRole("link", { name: /Live Q&A with the instructors/ })
      .first()
      .focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/view\/content\?activityPathId=[0-9a-f-]{36}/);
    expect(await sameDocument(), jsEnabled ? "Enter navigates inside the app" : "Enter loads the page").toBe(jsEnabled);
  });

  test("in Arabic the dashboard is right-to-left and translated", async ({ page, learner }) => {
    await openDashboard(page, learner);
    await page.locator("details.language-menu summary").click();
    await page.getByRole("button", { name: "العربية" }).click();
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("لوحة المعلومات");
    await expect(page.getByRole("heading", { level: 2, name: /تابع التعلّم/ })).toBeVisible();
    await expectAccessible(page);
  });
});

test("a new learner sees every section's empty state", { tag: "@js-only" }, async ({ page, learner }) => {
  await openDashboard(page, learner);
  for (const text of [
    "No course in progress.",
    "Nothing is due in the next 14 days.",
    "No question is waiting for your answer.",
    "No mandatory course is waiting to be started.",
    "Nothing is waiting for results.",
    "No results in the last 30 days.",
    "No events in the next 7 days.",
  ])
    await expect(page.getByText(text)).toBeVisible();
  await expectAccessible(page);
});
