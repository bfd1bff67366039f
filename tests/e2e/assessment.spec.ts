import type { Page } from "@playwright/test";
import { test, expect, login, expectAccessible } from "./fixtures";

/**
 * A QTI survey taken as a learner, with JavaScript and without — each page one form of plain
 * controls, a confirmation that names what is unanswered, and the server's record once submitted.
 */
test.use({
  learnerRecipe: {
    enrolments: [{ course: "learning-survey", attempts: [{ state: "inProgress", progress: 0, startedAgo: 1 }] }],
  },
});

async function openSurvey(page: Page) {
  await page.goto("/learn/courses?keyword=quarterly");
  await page
    .locator(".card-grid > li.course-card")
    .filter({ has: page.getByRole("heading", { name: "Quarterly Learning Survey", exact: true }) })
    .getByRole("link")
    .first()
    .click();
  await expect(page).toHaveURL(/\/view\/content/);
}

test("a learner answers the survey page with plain controls, resumes it and submits it", async ({ page, learner }) => {
  await login(page, learner, "/learn/courses");
  await openSurvey(page);
  await expect(page.getByRole("button", { name: "Mark as done" })).toHaveCount(0);
  await page.getByRole("link", { name: "Open the survey" }).click();
  await page.getByRole("button", { name: "Start", exact: true }).click();

  // Each question is a group named by its prompt.
  const useful = page.getByRole("group", { name: "How useful were this quarter's courses for your work?" });
  await useful.getByRole("radio", { name: "Very useful" }).check();
  const topics = page.getByRole("group", { name: "What should we teach next? Choose up to three." });
  await topics.getByRole("checkbox", { name: "Data analysis" }).check();
  await topics.getByRole("checkbox", { name: "Languages" }).check();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Your answers are saved.")).toBeVisible();

  // A reload keeps what was saved.
  await page.reload();
  await expect(useful.getByRole("radio", { name: "Very useful" })).toBeChecked();
  await expect(topics.getByRole("checkbox", { name: "Languages" })).toBeChecked();
  await expectAccessible(page);

  await page.getByRole("button", { name: "Save and finish" }).click();
  await expect(page.getByRole("alert")).toHaveText("Questions not answered: 3.");
  await page.getByRole("button", { name: "Submit my answers" }).click();
  await expect(page.getByText("Thank you: your answers are sent.").first()).toBeVisible();
  await page.getByRole("link", { name: "Back to the course" }).click();
  await expect(page.getByText("Thank you: your answers are sent.")).toBeVisible();
});

test(
  "the item keeps its own language, and no correct response or mapping is in the page",
  { tag: "@js-only" },
  async ({ page, learner }) => {
    await login(page, learner, "/learn/courses");
    await openSurvey(page);
    await page.getByRole("link", { name: "Open the survey" }).click();
    await page.getByRole("button", { name: "Start", exact: true }).click();
    await expect(page.locator(".qti__body").first()).toHaveAttribute("lang", "en");
    const html = await page.content();
    expect(html).not.toMatch(/qti-correct|mapping|mappedValue/);
  },
);
