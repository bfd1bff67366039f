import { test, expect, login } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * Issue 17 item 8 (decision 018): a locked activity's text never reaches the page — not in the
 * document, not in its loader data (the `.data` answer the browser's router reads) — and a course's
 * page never shows another course's attempt. The learner is like ada: an attempt in progress on Python
 * for Data Analysis, whose Module 7 opens in a week and whose bonus module is a draft.
 */
test.use({ learnerRecipe: { like: "ada" } });

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
/** Sentences of the locked activities' bodies (demo/data/courses/python-basics/texts/). */
const LOCKED_TEXTS = ["add docking stations", "Resampling, rolling windows"];

async function pythonCourseId(page: Page): Promise<string> {
  await page.goto("/learn/catalog?keyword=python+for+data+analysis");
  const href = await page
    .getByRole("link", { name: "Python for Data Analysis", exact: true })
    .first()
    .getAttribute("href");
  const id = new RegExp(`/learn/catalog/(${UUID.source})`).exec(href ?? "")?.[1];
  expect(id, "catalog link of Python for Data Analysis").toBeTruthy();
  return id!;
}

test(
  "a locked activity's text is neither in the content page nor in its loader data",
  { tag: "@js-only" },
  async ({ page, learner }) => {
    await login(page, learner);
    await expect(page.locator("details.user-menu")).toBeVisible();
    const id = await pythonCourseId(page);
    await page.goto(`/learn/courses/${id}/view/content`);
    await expect(page.getByRole("navigation", { name: "Table of contents" })).toBeVisible();
    // The locked ones are listed, with their reasons, but their bodies are not sent.
    await expect(page.getByText("Project brief: bike-share demand").first()).toBeVisible();
    const html = await (await page.request.get(`/learn/courses/${id}/view/content`)).text();
    const data = await (await page.request.get(`/learn/courses/${id}/view/content.data`)).text();
    expect(html).toContain("Project brief: bike-share demand");
    for (const text of LOCKED_TEXTS) {
      expect(html, text).not.toContain(text);
      expect(data, text).not.toContain(text);
    }
  },
);

test(
  "another course's attempt under this course's address is not found, in review or not",
  { tag: "@js-only" },
  async ({ page, learner }) => {
    await login(page, learner);
    await expect(page.locator("details.user-menu")).toBeVisible();
    const python = await pythonCourseId(page);
    // This learner's Python attempt, named by the content page's forms.
    const content = await (await page.request.get(`/learn/courses/${python}/view/content`)).text();
    const workflowId = /name="workflowId" value="([0-9a-f-]{36})"/.exec(content)?.[1];
    expect(workflowId, "the Python attempt's id").toBeTruthy();
    await page.goto("/learn/courses");
    // Another course of this learner's with an attempt of its own (its content page opens).
    let other: string | undefined;
    for (const href of new Set((await page.content()).match(/\/learn\/courses\/[0-9a-f-]{36}/g))) {
      const courseId = href.slice("/learn/courses/".length);
      if (courseId === python) continue;
      const res = await page.request.get(`${href}/view/content`);
      if (new URL(res.url()).pathname.endsWith("/view/content")) {
        other = courseId;
        break;
      }
    }
    expect(other, "another course with an attempt").toBeTruthy();
    for (const query of ["?viewType=REVIEW", ""]) {
      const response = await page.goto(`/learn/courses/${other}/workflow/${workflowId}/view${query}`);
      expect(response?.status(), query).toBe(404);
      await expect(page.getByRole("navigation", { name: "Table of contents" })).toHaveCount(0);
      expect(await page.content()).not.toContain("Welcome to Python for Data Analysis");
    }
  },
);
