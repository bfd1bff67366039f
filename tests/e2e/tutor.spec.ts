import { test, expect, login, expectAccessible } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * The AI tutor (issue 16 items 4–6): on a course with the tutor on, the learner asks; the answer quotes
 * the course's own open content and links to the activities it cites (extractive: no model configured).
 * Locked content (spec 4.12) is never quoted or cited. A form without JavaScript, the same with it.
 * The learner is like ada: Python for Data Analysis in progress, its project brief not open yet.
 */
test.use({ learnerRecipe: { like: "ada" } });

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

async function pythonCourseId(page: Page): Promise<string> {
  await page.goto("/learn/catalog?keyword=python+for+data+analysis");
  const href = await page
    .getByRole("link", { name: "Python for Data Analysis", exact: true })
    .first()
    .getAttribute("href");
  return new RegExp(`/learn/catalog/(${UUID.source})`).exec(href ?? "")![1];
}

async function ask(page: Page, question: string) {
  await page.getByLabel("Your question").fill(question);
  await page.getByRole("button", { name: "Ask" }).click();
  const exchange = page.locator(".tutor__exchange").filter({ hasText: question });
  await expect(exchange).toHaveCount(1);
  return exchange;
}

test("the tutor answers from the course with citations, and never from locked content", async ({ page, learner }) => {
  await login(page, learner);
  await expect(page.locator("details.user-menu")).toBeVisible();
  const id = await pythonCourseId(page);
  await page.goto(`/learn/courses/${id}/view/details`);
  await page.getByRole("link", { name: "AI tutor" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "AI tutor" })).toBeVisible();
  await expectAccessible(page);

  const answer = await ask(page, "What is a variable and what types are there?");
  await expect(answer.locator("blockquote").first()).toContainText("variable");
  const source = answer.getByRole("link", { name: "Variables, types and expressions" });
  await expect(source).toBeVisible();
  await source.click();
  await expect(page).toHaveURL(/\/view\/content\?activityPathId=/);
  await expect(page.getByRole("heading", { name: "Variables, types and expressions" }).first()).toBeVisible();

  await page.goBack();
  const locked = await ask(page, "bike share docking stations project brief");
  // The brief's own sentence ("… add docking stations next spring") is not quoted.
  await expect(locked.locator(".tutor__answer")).toBeVisible();
  await expect(locked.locator(".tutor__answer")).not.toContainText("docking stations next spring");
  await expect(locked.getByRole("link", { name: "Project brief: bike-share demand" })).toHaveCount(0);
  await expectAccessible(page);
});
