import type { Page } from "@playwright/test";
import { test, expect, login, expectAccessible, type Learner } from "./fixtures";

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

async function startSurvey(page: Page, learner: Learner) {
  await login(page, learner, "/learn/courses");
  await openSurvey(page);
  await page.getByRole("link", { name: "Open the survey" }).click();
  await page.getByRole("button", { name: "Start", exact: true }).click();
}

test(
  "with JavaScript the answers save as she goes, survive a reload, and the navigator marks answered and flagged questions",
  { tag: "@js-only" },
  async ({ page, learner }) => {
    await startSurvey(page, learner);
    const navigator = page.getByRole("navigation", { name: "Questions of the test" });
    await expect(navigator.getByRole("link", { name: "Question 1 · Not answered" })).toBeVisible();
    await page
      .getByRole("group", { name: "How useful were this quarter's courses for your work?" })
      .getByRole("radio", { name: "Very useful" })
      .check();
    await expect(navigator.getByRole("link", { name: "Question 1 · Answered" })).toBeVisible();
    await page.getByRole("checkbox", { name: "Flag question 2 for review" }).check();
    await expect(navigator.getByRole("link", { name: "Question 2 · Not answered · Flagged for review" })).toBeVisible();
    const status = page.locator(".qti-autosave");
    await expect(status).toHaveAttribute("aria-live", "polite");
    await expect(status).toHaveText(/^Saved \d/);

    // No button pressed: a reload (or another device) finds what was saved.
    await page.reload();
    await expect(page.getByRole("radio", { name: "Very useful" })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: "Flag question 2 for review" })).toBeChecked();
    await expect(navigator.getByRole("link", { name: "Question 2 · Not answered · Flagged for review" })).toBeVisible();

    // The navigator's link moves the focus to its question.
    await navigator.getByRole("link", { name: "Question 3 · Not answered" }).click();
    await expect(page.getByRole("region", { name: "Question 3" })).toBeFocused();
  },
);

test(
  "without JavaScript a question is flagged with the page's form, and the confirmation names the unanswered and flagged ones",
  { tag: "@nojs-only" },
  async ({ page, learner }) => {
    await startSurvey(page, learner);
    await page
      .getByRole("group", { name: "How useful were this quarter's courses for your work?" })
      .getByRole("radio", { name: "A little" })
      .check();
    await page.getByRole("checkbox", { name: "Flag question 3 for review" }).check();
    await page.getByRole("button", { name: "Save and finish" }).click();
    await expect(page.getByRole("alert")).toHaveText("Questions not answered: 2, 3.");
    await expect(page.getByText("Flagged for review: 3.")).toBeVisible();
    const navigator = page.getByRole("navigation", { name: "Questions of the test" });
    await expect(navigator).toContainText("Question 3 · Not answered · Flagged for review");
    await navigator.getByRole("link", { name: "Question 3 · Not answered · Flagged for review" }).click();
    await expect(page.getByRole("checkbox", { name: "Flag question 3 for review" })).toBeChecked();
    await expect(page.getByRole("radio", { name: "A little" })).toBeChecked();
  },
);
