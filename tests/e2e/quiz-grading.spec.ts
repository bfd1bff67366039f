import { test, expect, login, expectAccessible } from "./fixtures";

/**
 * Decision 065: an exam with an essay (demo/data/qti/privacy-exam, `external-scored="human"`) waits for a
 * person once submitted; a grader finds it in the grading queue, reads the answer and scores it, and the
 * learner's result is then there — with JavaScript on and off (each step a plain form). The API's rules
 * (scope, maximum, idempotence) are proven in tests/integration/assessment-api.test.ts.
 */
const COURSE = "Data Protection Officer Certification Exam";
const ESSAY = /A retailer plans to track shoppers in its stores/;
const ANSWER = "Yes: systematic monitoring of a public area with biometric data needs a DPIA before it starts.";

test("a learner's essay waits in the grading queue; the grader scores it and the exam is scored", async ({
  page,
  newLearner,
  browser,
  jsEnabled,
}) => {
  test.setTimeout(120_000);
  // A name of its own: the queue is the tenant's, and the other project runs this test too.
  const learner = await newLearner({
    firstName: `Essa${Math.random().toString(36).slice(2, 8)}`,
    lastName: "Writer",
    enrolments: [
      {
        course: "privacy-exam",
        assigned: {},
        attempts: [{ state: "inProgress", progress: 0, startedAgo: 1, sittingOpen: true }],
      },
    ],
  });
  await login(page, learner, "/learn/courses");
  await page
    .locator(".card-grid > li.course-card")
    .filter({ has: page.getByRole("heading", { name: COURSE, exact: true }) })
    .getByRole("link")
    .first()
    .click();
  await expect(page).toHaveURL(/\/view\/content/);
  await page.getByRole("link", { name: "Open the test" }).click();
  await page.getByRole("button", { name: "Start", exact: true }).click();
  await page.getByRole("group", { name: ESSAY }).getByRole("textbox").fill(ANSWER);
  await page.getByRole("button", { name: "Save and finish" }).click();
  await page.getByRole("button", { name: "Submit my answers" }).click();
  await expect(page.getByText("A person grades some of your answers; your score comes once they have.")).toBeVisible();
  const examUrl = page.url();

  // The instructor (a copy of grace: the Instructor role) finds it among the tests waiting for a score.
  const grader = await newLearner({ like: "grace" });
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled });
  const other = await context.newPage();
  await login(other, grader, "/learn/grading");
  const tests = other.getByRole("region", { name: "Tests waiting for a score" });
  const entry = tests.getByRole("listitem").filter({ hasText: learner.name });
  await expect(entry).toContainText("Answers to score: 1");
  await expectAccessible(other, { variants: true });
  await entry.getByRole("link").click();
  await expect(other.getByRole("heading", { level: 1 })).toContainText(learner.name);
  // The learner's answer, read-only, under its question.
  const question = other.getByRole("region", { name: "Question 1" });
  await expect(question.getByRole("textbox").first()).toHaveValue(ANSWER);
  await expectAccessible(other, { variants: true });

  // Above the item's maximum: said at the field, the typed score kept, nothing saved.
  await question.getByLabel("Score (0 to 4)").fill("7");
  await other.getByRole("button", { name: "Save the scores" }).click();
  await expect(question.getByText("The score must be between 0 and the activity's maximum.")).toBeVisible();
  await expect(question.getByLabel("Score (0 to 4)")).toHaveValue("7");

  await question.getByLabel("Score (0 to 4)").fill("3");
  await other.getByRole("button", { name: "Save the scores" }).click();
  await expect(other.getByText("The test is scored: the learner sees the result.")).toBeVisible();
  await expect(other).toHaveURL(/\/learn\/grading$/);
  await expect(other.getByRole("listitem").filter({ hasText: learner.name })).toHaveCount(0);
  await context.close();

  // The learner's exam is scored now: the essay's 3 points are in it, nothing waits for a person.
  await page.goto(examUrl);
  await expect(page.getByText(/^Score: \d+(\.\d+)? of \d+/)).toBeVisible();
  await expect(page.getByText("A person grades some of your answers")).toHaveCount(0);
  // And she is told, in the course's notifications.
  await page.goto(examUrl.replace(/\/assessment\/.*$/, "/view/notifications"));
  await expect(page.getByRole("link", { name: /Your work was graded/ })).toBeVisible();
});

test(
  "someone who does not grade gets 403 at the queue and 404 at an attempt",
  { tag: "@js-only" },
  async ({ page, learner }) => {
    await login(page, learner, "/learn");
    const queue = await page.goto("/learn/grading");
    expect(queue?.status()).toBe(403);
    const one = await page.goto("/learn/grading/test/00000000-0000-4000-8000-000000000000");
    expect(one?.status()).toBe(404);
    const garbled = await page.goto("/learn/grading/test/not-an-id");
    expect(garbled?.status()).toBe(404);
  },
);
