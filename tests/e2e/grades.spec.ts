import { test, expect, login, expectAccessible, chooseLanguage, type Learner } from "./fixtures";
import type { Page } from "@playwright/test";
import { expectPhoneReady } from "./phone";

/**
 * Issue 31 item 1: the Grades page — every course with its attempt, progress, grade and score as spec
 * 4.7 allows, graded activities, sort and filters with My courses' URL rules, the course page's link to
 * its part, the CSV export. Runs with JavaScript on and off.
 */
test.use({
  learnerRecipe: {
    enrolments: [
      {
        course: "secure-coding",
        selfEnrolled: true,
        attempts: [{ state: "graded", progress: 1, startedAgo: 25, submittedAgo: 8, score: 15 }],
      },
      {
        course: "harassment-prevention",
        selfEnrolled: true,
        attempts: [{ state: "finished", progress: 1, startedAgo: 9, submittedAgo: 4, finishedAgo: 3, score: 1 }],
      },
      {
        course: "ai-ethics",
        selfEnrolled: true,
        attempts: [{ state: "finished", progress: 1, startedAgo: 50, submittedAgo: 35, finishedAgo: 35, score: 1 }],
      },
      {
        course: "cyber-exam",
        selfEnrolled: true,
        attempts: [{ state: "finished", progress: 1, startedAgo: 9, submittedAgo: 7, finishedAgo: 7, score: 78 }],
      },
      {
        course: "python-basics",
        selfEnrolled: true,
        attempts: [{ state: "inProgress", progress: 0.35, startedAgo: 6 }],
      },
    ],
  },
});

const section = (page: Page, name: string) =>
  page.locator("section.grade-course").filter({ has: page.getByRole("heading", { name, exact: true }) });
const headings = (page: Page) => page.locator("section.grade-course h2");

async function openGrades(page: Page, learner: Learner) {
  await login(page, learner, "/learn/courses");
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Grades" }).first().click();
  await expect(page).toHaveURL(/\/learn\/grades$/);
  await expect(page.getByRole("heading", { level: 1, name: "Grades" })).toBeVisible();
}

test(
  "every course with what the reveal rules allow, points only where the max score is not 1",
  { tag: "@js-only" },
  async ({ page, learner }) => {
    await openGrades(page, learner);
    await expect(page.locator(".course-list__count")).toHaveText("5 courses");
    await expect(headings(page)).toHaveText([
      "Cyber Security Certification Exam",
      "Preventing Harassment at Work",
      "Python for Data Analysis",
      "Responsible AI and Ethics",
      "Secure Coding Practices",
    ]);
    // A 0–20 points scale: percent and points.
    const secure = section(page, "Secure Coding Practices");
    await expect(secure).toContainText("75%");
    await expect(secure).toContainText("15 out of 20 points");
    // Pass/fail (max score 1): the percent, never "1 out of 1 points".
    const harassment = section(page, "Preventing Harassment at Work");
    await expect(harassment).toContainText("100%");
    await expect(harassment).not.toContainText("out of");
    await expect(harassment).toContainText("Passed");
    // Never revealed, and revealed next week: nothing of the score, the date it shows from.
    const ethics = section(page, "Responsible AI and Ethics");
    await expect(ethics.locator("dd").nth(2)).toHaveText("Hidden");
    await expect(ethics.locator("dd").nth(3)).toHaveText("Hidden");
    const cyber = section(page, "Cyber Security Certification Exam");
    await expect(cyber.locator("dd").nth(2)).toHaveText(/^Shown from /);
    await expect(cyber).not.toContainText("78");
    await expect(section(page, "Python for Data Analysis").locator("dd").nth(1)).toHaveText("35%");
    await expectAccessible(page);
  },
);

test("sorted and filtered with My courses' URL rules, the state kept for the next visit", async ({ page, learner }) => {
  await openGrades(page, learner);
  await page.getByLabel("Sort by").selectOption({ label: "Highest score first" });
  await page.getByRole("button", { name: "Sort", exact: true }).click();
  await expect(page).toHaveURL(/\/learn\/grades\?sort=-score$/);
  // Visible scores first (100 %, 75 %); hidden ones after, by name: their scores never order the list.
  await expect(headings(page)).toHaveText([
    "Preventing Harassment at Work",
    "Secure Coding Practices",
    "Cyber Security Certification Exam",
    "Python for Data Analysis",
    "Responsible AI and Ethics",
  ]);
  await page.getByRole("searchbox").fill("secure");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/keyword=secure/);
  await expect(headings(page)).toHaveText(["Secure Coding Practices"]);
  // The next visit of /learn/grades comes back to the same state.
  await page.goto("/learn/courses");
  await page.goto("/learn/grades");
  await expect(page).toHaveURL(/\/learn\/grades\?keyword=secure&sort=-score$/);
  // An unknown value is dropped with the toast, the URL rewritten.
  await page.goto("/learn/grades?sort=cheating&courseProgress=completed");
  await expect(page).toHaveURL(/\/learn\/grades\?courseProgress=completed$/);
  await expect(page.getByText("Some filters are no longer available", { exact: false })).toBeVisible();
  await expect(headings(page)).toHaveText([
    "Cyber Security Certification Exam",
    "Preventing Harassment at Work",
    "Responsible AI and Ethics",
  ]);
});

test("the course page links to its part: the graded activities", { tag: "@js-only" }, async ({ page, learner }) => {
  await openGrades(page, learner);
  await section(page, "Secure Coding Practices").getByRole("link", { name: "Secure Coding Practices" }).click();
  await expect(page).toHaveURL(/\/learn\/grades\/[0-9a-f-]{36}$/);
  const part = page.url();
  await expect(page.getByRole("heading", { level: 1, name: "Grades: Secure Coding Practices" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Graded activities of Secure Coding Practices" })).toBeVisible();
  await page.getByRole("link", { name: "Open the course" }).click();
  await expect(page).toHaveURL(/\/learn\/courses\/[0-9a-f-]{36}$/);
  await page.getByRole("link", { name: "See the graded activities of this course" }).click();
  await expect(page).toHaveURL(part);
  await expectAccessible(page);
  // Not the learner's course: the course-unavailable page.
  const response = await page.goto("/learn/grades/00000000-0000-4000-8000-000000000000");
  expect(response?.status()).toBe(404);
});

test(
  "exports the learner's own grades as CSV, nothing hidden in it",
  { tag: "@js-only" },
  async ({ page, learner }) => {
    await openGrades(page, learner);
    const href = await page.getByRole("link", { name: "Download as CSV" }).getAttribute("href");
    expect(href).toBe("/learn/grades/export");
    const response = await page.request.get(href!);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename="grades-\d{4}-\d{2}-\d{2}\.csv"$/);
    const csv = (await response.text()).replace(/^\uFEFF/, "");
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "Course,Course code,Activity,State,Progress (%),Grade,Score (%),Points,Maximum points,Result,Completed",
    );
    const secure = lines.find((l) => l.startsWith("Secure Coding Practices,") && l.split(",")[2] === "")!;
    expect(secure.split(",").slice(4, 9)).toEqual(["100", "Good", "75", "15", "20"]);
    const harassment = lines.find((l) => l.startsWith("Preventing Harassment at Work,") && l.split(",")[2] === "")!;
    // Max score 1: no points.
    expect(harassment.split(",").slice(6, 10)).toEqual(["100", "", "", "Passed"]);
    const ethics = lines.find((l) => l.startsWith("Responsible AI and Ethics,") && l.split(",")[2] === "")!;
    expect(ethics.split(",").slice(5, 10)).toEqual(["Hidden", "Hidden", "", "", "Hidden"]);
    expect(csv).not.toMatch(/Cyber Security Certification Exam,[^\r\n]*,78,/);
  },
);

test(
  "in Arabic on a phone: right to left, nothing wider than the screen, axe",
  { tag: "@js-only" },
  async ({ page, learner, baseURL }) => {
    // Three pages, each checked twice with axe (and re-opened without JavaScript): more than one page's time.
    test.setTimeout(90_000);
    await login(page, learner, "/learn/grades");
    await expect(page.getByRole("heading", { level: 1, name: "Grades" })).toBeVisible();
    await chooseLanguage(page, baseURL!, "ar");
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator("section.grade-course")).toHaveCount(5);
    await expectAccessible(page);
    await expectPhoneReady(page);
    await page.goto(`${new URL(page.url()).pathname}?sort=-score`);
    await expectPhoneReady(page);
    const part = await page.locator("section.grade-course h2 a").first().getAttribute("href");
    await page.goto(part!);
    await expectPhoneReady(page);
    await page.setViewportSize({ width: 320, height: 700 });
    const overflow = await page.evaluate(() => {
      const main = document.getElementById("main")!;
      return main.scrollWidth - main.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
  },
);
