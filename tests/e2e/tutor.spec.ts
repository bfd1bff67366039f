import { test, expect, login, expectAccessible } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * The AI tutor: on a course with the tutor on, the learner asks; the answer quotes
 * the course's own open content and links to the activities it cites (extractive: no model configured).
 * Locked content (spec 4.12) is never quoted or cited. A PDF's page is cited with its number and opens the
 * content viewer at that page. A form without JavaScript, the same with it.
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
  // The tutor page itself (the content viewer's tutor widget has the same form).
  await expect(page.getByRole("heading", { level: 1, name: "AI tutor" })).toBeVisible();
  await page.getByLabel("Your question").fill(question);
  await page.getByRole("button", { name: "Ask" }).click();
  const exchange = page.locator(".tutor__exchange").filter({ hasText: question });
  await expect(exchange).toHaveCount(1);
  return exchange;
}

test("the tutor answers from the course with citations, and never from locked content", async ({
  page,
  learner,
  jsEnabled,
}) => {
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

  // Issue 16 item 5: a PDF's page is cited with its number and opens the viewer at that page.
  await page.goBack();
  const fromPdf = await ask(page, "What happens to late work after the grace period?");
  const pdfSource = fromPdf.getByRole("link", { name: "Course handbook (PDF), page 4" });
  await expect(pdfSource).toHaveAttribute("href", /\/view\/content\?activityPathId=[0-9a-f-]+&pdfPage=4$/);
  await expect(fromPdf.locator("blockquote").filter({ hasText: "late work is accepted" })).toHaveCount(1);
  await expectAccessible(page);
  await pdfSource.click();
  await expect(page).toHaveURL(/pdfPage=4/);
  const viewer = page.getByRole("region", { name: "Course handbook (PDF)" });
  if (jsEnabled) {
    await expect(viewer.getByRole("group", { name: "Page 4 of 6", exact: true })).toBeVisible();
    await expect(viewer.getByLabel("Page", { exact: true })).toHaveValue("4");
  } else {
    // The browser's own viewer, at the page (PDF open parameters).
    await expect(viewer.locator('object[type="application/pdf"]')).toHaveAttribute(
      "data",
      "/learn/demo/course-handbook.pdf#page=4",
    );
  }

  await page.goBack();
  const locked = await ask(page, "bike share docking stations project brief");
  // The brief's own sentence ("… add docking stations next spring") is not quoted.
  await expect(locked.locator(".tutor__answer")).toBeVisible();
  await expect(locked.locator(".tutor__answer")).not.toContainText("docking stations next spring");
  await expect(locked.getByRole("link", { name: "Project brief: bike-share demand" })).toHaveCount(0);
  await expectAccessible(page);
});
