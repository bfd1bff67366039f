import { test, expect, login, expectAccessible, type Learner } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * Issue 14 item 8 (spec 2.1, 4.8, 7.5; decision 024): a proctored activity's sitting. From the
 * course the learner opens the wrapper and starts the sitting; the demo's proctoring service verifies
 * the start token with the platform's keys and frames the wrapper, which embeds the activity; when the
 * proctor ends the sitting the 4.8 lock holds. Plain forms and links: the same with JavaScript off.
 */
test.use({
  learnerRecipe: {
    enrolments: [
      {
        course: "sql-fundamentals",
        selfEnrolled: true,
        attempts: [{ state: "inProgress", progress: 0, startedAgo: 1 }],
      },
    ],
  },
});

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** Signs in and opens SQL Fundamentals' content (its final quiz is proctored); the course id. */
async function openSqlContent(page: Page, learner: Learner) {
  await login(page, learner);
  await page.goto(`/learn/courses?keyword=sql`);
  const card = page
    .locator(".card-grid > li.course-card")
    .filter({ has: page.getByRole("heading", { name: "SQL Fundamentals", exact: true }) });
  const id = new RegExp(`/learn/courses/(${UUID})`).exec(
    (await card.getByRole("link").first().getAttribute("href")) ?? "",
  )?.[1];
  await page.goto(`/learn/courses/${id}/view/content`);
  return id!;
}

test("the sitting starts in the wrapper, the proctoring service verifies and ends it, and the lock holds", async ({
  page,
  learner,
}) => {
  const id = await openSqlContent(page, learner);
  const quiz = page.getByRole("navigation", { name: "Table of contents" }).getByRole("link", { name: /Final quiz/ });
  await page.goto((await quiz.getAttribute("href"))!);
  await page.getByRole("link", { name: "Take this activity in a proctored sitting" }).click();

  // The wrapper, before the sitting.
  await expect(page).toHaveURL(new RegExp(`/learn/courses/proctor/${id}/${UUID}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Final quiz" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "The sitting has not started." })).toBeVisible();
  await expectAccessible(page);
  const wrapper = page.url();
  await page.getByRole("button", { name: "Start the proctored sitting" }).click();

  // The proctoring service: the start token verified with the platform's JWKS, the wrapper framed.
  await expect(page).toHaveURL(/\/demo-tools\/proctoring\?/);
  await expect(page.getByText("Start token verified with the platform's keys.")).toBeVisible();
  await expect(page.getByTestId("proctor-sub")).toHaveText(learner.id);
  const framed = page.frameLocator('iframe[title="Proctored activity"]');
  await expect(framed.getByRole("status").filter({ hasText: /Sitting in progress since/ })).toBeVisible();
  await expect(framed.locator('iframe[title="Final quiz"]')).toBeVisible();

  // The proctor ends it: the wrapper shows the lock, and so does the course.
  await page.getByRole("button", { name: "End the sitting" }).click();
  await expect(page.getByTestId("proctor-ended")).toHaveText("The sitting has ended.");
  await expect(framed.getByRole("status").filter({ hasText: /The sitting ended at/ })).toBeVisible();
  await expect(framed.getByRole("note")).toHaveText("Locked by the proctoring session.");
  await page.goto(wrapper);
  await expect(page.getByRole("button", { name: "Start the proctored sitting" })).toHaveCount(0);
  await page.goto(`/learn/courses/${id}/view/content`);
  await expect(page.getByRole("note").filter({ hasText: "Locked by the proctoring session." })).toBeVisible();
  await expect(page.getByRole("link", { name: "Take this activity in a proctored sitting" })).toHaveCount(0);
});

test(
  "an activity that is not proctored opens in the content view; an unknown one is 'Activity not found'",
  { tag: "@js-only" },
  async ({ page, learner }) => {
    const id = await openSqlContent(page, learner);
    const practice = page
      .getByRole("navigation", { name: "Table of contents" })
      .getByRole("link", { name: /Practice: joins/ });
    const pathId = /activityPathId=([0-9a-f-]{36})/.exec((await practice.getAttribute("href")) ?? "")?.[1];
    await page.goto(`/learn/courses/proctor/${id}/${pathId}`);
    await expect(page).toHaveURL(new RegExp(`/view/content\\?activityPathId=${pathId}$`));
    const res = await page.goto(`/learn/courses/proctor/${id}/00000000-0000-4000-8000-000000000000`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Activity not found" })).toBeVisible();
  },
);
