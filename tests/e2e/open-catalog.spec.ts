import { test, expect, login, expectAccessible, expectNoReact, type Learner } from "./fixtures";
import type { Browser, Page } from "@playwright/test";

/**
 * The open (public) catalog (spec 2.1, 2.2, 4.9, 7.2, 8): visitors without a session see the public
 * courses and a sign-up offer; a signed-in learner following a share link is sent on. Learners are
 * each test's own (decision 014).
 */

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
/** The public courses of the seed, in the list's order (by name). */
const PUBLIC_COURSES = [
  "Arabic for Beginners",
  "Introduction to Machine Learning",
  "Project Management Fundamentals",
  "Python for Data Analysis",
  "SQL Fundamentals",
  "TypeScript Deep Dive",
  "Welcome to Northwind",
  "أساسيات القيادة الفعالة",
  "مقدمة في تعلم الآلة",
  "ビジネス日本語入門",
];

const titles = (page: Page) => page.locator(".card-grid .course-card__title");
const cards = (page: Page) => page.locator(".card-grid > li.course-card");
const card = (page: Page, name: string) =>
  cards(page).filter({ has: page.getByRole("heading", { name, exact: true }) });

/** The id of a public course, read from its open-catalog card. */
async function publicId(page: Page, name: string): Promise<string> {
  await page.goto(`/learn/open-catalog?keyword=${encodeURIComponent(name.toLowerCase())}`);
  const href = await card(page, name).getByRole("link").getAttribute("href");
  expect(href).toMatch(new RegExp(`^/learn/open-catalog/${UUID}/view/details$`));
  return href!.split("/")[3];
}

/** The id of a course that is not public, read from a learner's catalog in a separate context. */
async function catalogIdAs(learner: Learner, browser: Browser, name: string): Promise<string> {
  const ctx = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const page = await ctx.newPage();
    await login(
      page,
      learner,
      `/oidc/login?redirectUrl=${encodeURIComponent(`/learn/catalog?keyword=${name.toLowerCase()}`)}`,
    );
    const link = card(page, name).getByRole("link");
    await expect(link).toHaveAttribute("href", new RegExp(`^/learn/catalog/${UUID}$`));
    return (await link.getAttribute("href"))!.split("/").at(-1)!;
  } finally {
    await ctx.close();
  }
}

test.describe("Open catalog", () => {
  test("a visitor sees only public courses, the sign-up offer and no user menu", async ({ page, jsEnabled }) => {
    const response = await page.goto("/learn/open-catalog");
    expect(response?.status()).toBe(200);
    if (!jsEnabled) await expectNoReact(page);
    await expect(page.getByRole("heading", { level: 1, name: "Course catalog" })).toBeVisible();
    await expect(titles(page)).toHaveText(PUBLIC_COURSES);
    await expect(page.locator(".course-list__count")).toHaveText(`${PUBLIC_COURSES.length} courses`);
    await expect(card(page, "Git Workflows for Teams")).toHaveCount(0);
    // No enrolment badges and no pagination for a visitor's ten courses.
    await expect(page.locator(".cover-badge")).toHaveCount(0);
    await expect(page.getByRole("navigation", { name: "Pages" })).toHaveCount(0);
    for (const link of await cards(page).getByRole("link").all()) {
      await expect(link).toHaveAttribute("href", new RegExp(`^/learn/open-catalog/${UUID}/view/details$`));
    }

    // The sign-up offer; a sign-in button instead of the user menu; the public menu only.
    const offer = page.getByRole("complementary", { name: "New here?" });
    await expect(offer).toBeVisible();
    await expect(offer.getByRole("link", { name: "Sign up" })).toHaveAttribute(
      "href",
      /^\/oidc\/login\?provider=signup&redirectUrl=/,
    );
    await expect(offer.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", /^\/oidc\/login\?redirectUrl=/);
    await expect(page.locator("details.user-menu")).toHaveCount(0);
    await expect(page.locator("header").getByRole("link", { name: "Sign in" })).toBeVisible();
    const menu = page.getByRole("navigation", { name: "Main navigation" }).last();
    await expect(menu.getByRole("link")).toHaveText(["Course catalog"]);

    // Search works for visitors too.
    const search = page.getByRole("searchbox", { name: "Search the catalog" });
    await search.fill("SQL");
    if (!jsEnabled) await search.press("Enter");
    await expect(page).toHaveURL("/learn/open-catalog?keyword=sql");
    await expect(titles(page)).toHaveText(["SQL Fundamentals"]);
  });

  test("the open catalog is accessible", { tag: "@js-only" }, async ({ page }) => {
    await page.goto("/learn/open-catalog");
    await expect(titles(page)).toHaveText(PUBLIC_COURSES);
    await expectAccessible(page);
  });

  test("course details show the course and the sign-in and sign-up links", async ({ page, jsEnabled }) => {
    await page.goto("/learn/open-catalog");
    await card(page, "Python for Data Analysis").getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/learn/open-catalog/${UUID}/view/details$`));
    const id = new URL(page.url()).pathname.split("/")[3];
    if (!jsEnabled) await expectNoReact(page);
    await expect(page.getByRole("heading", { level: 1, name: "Python for Data Analysis" })).toBeVisible();
    await expect(page.getByText("PY-101")).toBeVisible();
    await expect(page.getByRole("heading", { name: "About the course" })).toBeVisible();
    await expect(page.getByText("Reading CSV and Excel files with pandas")).toBeVisible();
    await expect(page).toHaveTitle(/Python for Data Analysis/);
    const then = (flow: string) => encodeURIComponent(`/learn/courses?occflow=${flow}&objectiveId=${id}`);
    await expect(page.getByRole("link", { name: "Sign up and add to my courses" })).toHaveAttribute(
      "href",
      `/oidc/login?provider=signup&redirectUrl=${then("addToMyCourses")}`,
    );
    await expect(page.getByRole("link", { name: "Sign in and add to my courses" })).toHaveAttribute(
      "href",
      `/oidc/login?redirectUrl=${then("addToMyCourses")}`,
    );
    await expect(page.getByRole("link", { name: "Sign in and start the course" })).toHaveAttribute(
      "href",
      `/oidc/login?redirectUrl=${then("startTheCourse")}`,
    );
    await expect(page.getByRole("complementary", { name: "New here?" })).toBeVisible();
    await expect(page.locator("details.user-menu")).toHaveCount(0);
    await expectAccessible(page);
  });

  test(
    "/learn/open-catalog/{id} and /{id}/view lead to the details; other paths are not found",
    { tag: "@js-only" },
    async ({ page }) => {
      const id = await publicId(page, "SQL Fundamentals");
      for (const path of [`/learn/open-catalog/${id}`, `/learn/open-catalog/${id}/view`]) {
        await page.goto(path);
        await expect(page, path).toHaveURL(`/learn/open-catalog/${id}/view/details`);
        await expect(page.getByRole("heading", { level: 1, name: "SQL Fundamentals" })).toBeVisible();
      }
      const response = await page.goto(`/learn/open-catalog/${id}/somewhere/else`);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    },
  );

  test(
    "a course that is not public, or does not exist, is 'Course is not available'",
    { tag: "@js-only" },
    async ({ page, browser, learner }) => {
      const hidden = await catalogIdAs(learner, browser, "Git Workflows for Teams");
      for (const id of [hidden, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
        const response = await page.goto(`/learn/open-catalog/${id}/view/details`);
        expect(response?.status(), id).toBe(404);
        await expect(page.getByRole("heading", { level: 1 }), id).toHaveText("Course is not available");
        await expect(page.getByText("Git Workflows for Teams")).toHaveCount(0);
      }
    },
  );

  test("/learn/catalog sends a visitor to the open catalog", { tag: "@js-only" }, async ({ page }) => {
    await page.goto("/learn/catalog");
    await expect(page).toHaveURL("/learn/open-catalog");
    await expect(page.getByRole("heading", { level: 1, name: "Course catalog" })).toBeVisible();
    await page.goto("/learn/catalog?keyword=python");
    await expect(page).toHaveURL("/learn/open-catalog?keyword=python");
    await expect(titles(page)).toHaveText(["Python for Data Analysis"]);
    // A catalog course page sends a visitor to the public details.
    const id = await publicId(page, "Python for Data Analysis");
    await page.goto(`/learn/catalog/${id}`);
    await expect(page).toHaveURL(`/learn/open-catalog/${id}/view/details`);
  });

  test("a signed-in learner following a share link goes to the course or the catalog (spec 4.9)", async ({
    page,
    newLearner,
  }) => {
    const enrolled = await publicId(page, "Python for Data Analysis");
    const notEnrolled = await publicId(page, "Project Management Fundamentals");
    // Enrolled in Python for Data Analysis, not in Project Management Fundamentals: like ada.
    await login(page, await newLearner({ like: "ada" }), "/learn/courses");
    await expect(page.locator("details.user-menu")).toBeVisible();
    // The course screen belongs to other tests; this one checks where the link leads and stops there.
    await page.route(`**/learn/courses/${enrolled}`, (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>course</title>" }),
    );
    await page.goto(`/learn/open-catalog/${enrolled}/view/details`);
    await expect(page).toHaveURL(`/learn/courses/${enrolled}`);

    // Not enrolled, not mandatory, no workflow: the catalog entry.
    await page.goto(`/learn/open-catalog/${notEnrolled}/view/details`);
    await expect(page).toHaveURL(`/learn/catalog/${notEnrolled}`);
    await expect(page.getByRole("heading", { level: 1, name: "Project Management Fundamentals" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Add to my courses" })).toBeVisible();
  });
});
