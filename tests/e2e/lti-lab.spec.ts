import { test, expect, login, expectAccessible, courseIdByName } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * Issue 26 (journeys, the LTI lab): a new learner takes the Physics Lab Simulations — one LTI activity
 * graded by its tool (the demo LTI 1.3 tool, demo/tools/lti13.ts). Start opens the tool at once,
 * nothing but the tool can finish it, and the course pages learn of the tool's score by themselves.
 */
const LAB = "Physics Lab Simulations";
const FRAME = `iframe[title="External tool: ${LAB}"]`;

/** The "Progress" value of the course page's results. */
const progress = (page: Page) =>
  page
    .locator(".results__list > div")
    .filter({ has: page.getByRole("term").getByText("Progress", { exact: true }) })
    .getByRole("definition");

test("Start on an LTI course opens its tool at once, and 'Mark as done' is not offered where the tool grades", async ({
  page,
  learner,
  jsEnabled,
}) => {
  await login(page, learner);
  const id = await courseIdByName(page, LAB);
  await page.goto(`/learn/catalog/${id}`);
  await page.getByRole("button", { name: "Add to my courses" }).click();
  await page.goto(`/learn/courses/${id}`);
  await page.getByRole("button", { name: "Start", exact: true }).click();
  // One press: the content, where the tool launches (spec 4.4 reloaded the course page: press again).
  await expect(page).toHaveURL(new RegExp(`/learn/courses/${id}/view/content`));
  if (jsEnabled) {
    await expect(page.frameLocator(FRAME).getByText("Launch verified with the platform's keys.")).toBeVisible({
      timeout: 15_000,
    });
  } else {
    await expect(page.getByRole("button", { name: "Open the tool", exact: true })).toBeVisible();
  }
  await expect(
    page.getByText("Your result comes from the tool: this activity is done when the tool sends it."),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Mark as done" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Start activity" })).toHaveCount(0);
  await expectAccessible(page);
});

test("the course page learns of the tool's score without a reload", async ({ page, newLearner, jsEnabled }) => {
  const learner = await newLearner({
    enrolments: [
      { course: "physics-lab", selfEnrolled: true, attempts: [{ state: "inProgress", progress: 0, startedAgo: 1 }] },
    ],
  });
  await login(page, learner);
  const id = await courseIdByName(page, LAB);
  await page.goto(`/learn/courses/${id}`);
  await expect(progress(page)).toHaveText("0%");

  // The tool in a window of its own, as the course content's "Open the tool in a new window" (or without
  // JavaScript, "Open the tool") opens it; this tab stays on the course page.
  const content = await page.context().newPage();
  await content.goto(`/learn/courses/${id}/view/content`);
  const [tool] = await Promise.all([
    content.waitForEvent("popup"),
    content
      .getByRole("button", { name: jsEnabled ? "Open the tool in a new window" : "Open the tool", exact: true })
      .click(),
  ]);
  if (!jsEnabled) {
    // Without JavaScript each hop is a button: to the tool's login, then the id_token's form_post.
    await tool.getByRole("button", { name: "Continue to the tool" }).click();
    await tool.getByRole("button", { name: "Continue to the tool" }).click();
  }
  await expect(tool.getByText("Launch verified with the platform's keys.")).toBeVisible({ timeout: 15_000 });
  await tool.getByLabel("Score out of 10").fill("8");
  await tool.getByRole("button", { name: "Send the score" }).click();
  await expect(tool.getByText("Your score 8 / 10 was sent to the course.")).toBeVisible();

  if (jsEnabled) {
    // No reload, no click: the course page (and the content page that launched it) show the result.
    await expect(progress(page)).toHaveText("100%", { timeout: 15_000 });
    await expect(content.getByText("The tool sent your result: this activity is done.")).toBeVisible({
      timeout: 15_000,
    });
    await expect(content.locator(".activity-panel__meta").first()).toContainText("Completed");
  } else {
    // Without JavaScript a page cannot change by itself: the learner's next view of it is current.
    await page.getByRole("link", { name: "Details" }).click();
    await expect(progress(page)).toHaveText("100%");
  }
  await expect(page.getByRole("link", { name: "Continue" })).toBeVisible();
});
