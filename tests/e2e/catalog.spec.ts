import { test, expect, login, expectAccessible, expectNoReact, type Learner } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * The catalog as ada sees it (spec 2.1, 2.3, 4.3, 4.14, 7.2, 8): list, search, collection chips, pages,
 * course details and 'Add to my courses', and the occflow link from the open catalog. Each test
 * signs in as a learner of its own like ada (decision 014), so enrolling changes no other test's list.
 * The enrolling tests pick a different course in each project, to cover more than one.
 */
test.use({ learnerRecipe: { like: "ada" } });
const PICK = {
  js: { add: "Physics Lab Simulations", refused: "Cloud Architecture on AWS", occflow: "Welcome to Northwind" },
  nojs: { add: "Quarterly Learning Survey", refused: "Leading High-Performing Teams", occflow: "Arabic for Beginners" },
} as const;
const pick = () => PICK[test.info().project.name as keyof typeof PICK];

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const CATALOG_TOTAL = 34;
const LANGUAGES = [
  "Arabic for Beginners",
  "Arbeitssicherheit im Büro: Grundlagen für alle Mitarbeitenden",
  "Business English Writing",
  "German A1: Everyday Conversations",
  "Spanish Conversation Club",
  "أساسيات القيادة الفعالة",
  "ビジネス日本語入門",
];

const titles = (page: Page) => page.locator(".card-grid .course-card__title");
const cards = (page: Page) => page.locator(".card-grid > li.course-card");
const card = (page: Page, name: string) =>
  cards(page).filter({ has: page.getByRole("heading", { name, exact: true }) });
const countText = (page: Page) => page.locator(".course-list__count");
const toast = (page: Page, text: string) =>
  page.getByRole("region", { name: "Notifications" }).getByText(text, { exact: true });

/** With JavaScript, waits until React has hydrated the search box; without, proves there is no React. */
async function hydrated(page: Page, jsEnabled: boolean) {
  if (!jsEnabled) {
    await expectNoReact(page);
    return;
  }
  await page.waitForFunction(() => {
    const el = document.querySelector("#course-search");
    return !!el && Object.keys(el).some((k) => k.startsWith("__reactProps"));
  });
}

async function openCatalog(page: Page, learner: Learner, jsEnabled: boolean, path = "/learn/catalog") {
  // The catalog is a public path (a visitor is shown the open catalog), so sign in through /oidc/login.
  await login(page, learner, `/oidc/login?redirectUrl=${encodeURIComponent(path)}`);
  await expect(page.getByRole("heading", { level: 1, name: "Catalog" })).toBeVisible();
  await hydrated(page, jsEnabled);
}

/** The catalog detail URL of a course, found through the catalog search. */
async function catalogHref(page: Page, name: string): Promise<string> {
  await page.goto(`/learn/catalog?keyword=${encodeURIComponent(name.toLowerCase())}`);
  const link = card(page, name).getByRole("link", { name, exact: true });
  await expect(link).toHaveAttribute("href", new RegExp(`^/learn/catalog/${UUID}$`));
  return (await link.getAttribute("href"))!;
}

test.describe("Catalog", () => {
  test("lists the catalog with enrolled badges, search and a collection chip", async ({ page, jsEnabled, learner }) => {
    await openCatalog(page, learner, jsEnabled);
    await expect(page).toHaveTitle(/Catalog/);
    await expect(countText(page)).toHaveText(`${CATALOG_TOTAL} courses`);
    await expect(cards(page)).toHaveCount(24);
    // Courses ada is enrolled in carry the badge; others do not.
    await expect(card(page, "Python for Data Analysis").locator(".cover-badge")).toHaveText("In my courses");
    await expect(card(page, "Coaching Skills Workshop").locator(".cover-badge")).toHaveCount(0);
    await expect(card(page, "Coaching Skills Workshop").getByRole("link")).toHaveAttribute(
      "href",
      new RegExp(`^/learn/catalog/${UUID}$`),
    );
    await expect(card(page, "Coaching Skills Workshop").locator(".course-card__description")).toHaveText(
      /^Practise coaching conversations/,
    );
    // Not offered: assigned only, draft, expired, archived.
    for (const name of [
      "Anti-Bribery and Corruption",
      "New Manager Essentials",
      "Kubernetes Operations",
      "COBOL Maintenance (retired)",
    ]) {
      await expect(card(page, name), name).toHaveCount(0);
    }

    // Search.
    const search = page.getByRole("searchbox", { name: "Search the catalog" });
    await search.fill("  PYTHON");
    if (!jsEnabled) await page.getByRole("search").getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL("/learn/catalog?keyword=python");
    await expect(titles(page)).toHaveText(["Python for Data Analysis"]);
    await expect(countText(page)).toHaveText("1 course");
    await search.fill("nothing like this");
    if (!jsEnabled) await search.press("Enter");
    await expect(page).toHaveURL(/keyword=nothing\+like\+this$/);
    await expect(page.getByRole("heading", { name: "No courses match your search" })).toBeVisible();
    await expect(cards(page)).toHaveCount(0);

    // A collection chip filters and shows as selected; pressing it again removes it.
    await page.goto("/learn/catalog");
    const chips = page.getByRole("navigation", { name: "Collections" });
    await chips.getByRole("link", { name: "Languages" }).click();
    await expect(page).toHaveURL(new RegExp(`/learn/catalog\\?collection=${UUID}$`));
    await expect(chips.getByRole("link", { name: "Languages" })).toHaveAttribute("aria-current", "true");
    await expect(titles(page)).toHaveText(LANGUAGES);
    await expect(page.locator("#filter-drawer-button .badge")).toHaveText("1");
    await chips.getByRole("link", { name: "Languages" }).click();
    await expect(page).toHaveURL(/\/learn\/catalog\??$/);
    await expect(chips.getByRole("link", { name: "Languages" })).not.toHaveAttribute("aria-current", "true");
    await expect(countText(page)).toHaveText(`${CATALOG_TOTAL} courses`);
  });

  test("catalog filters that only My courses knows are dropped", async ({ page, jsEnabled, learner }) => {
    await openCatalog(page, learner, jsEnabled, "/learn/catalog?courseProgress=completed&keyword=sql");
    await expect(page).toHaveURL("/learn/catalog?keyword=sql");
    await expect(titles(page)).toHaveText(["SQL Fundamentals"]);
  });

  test("page links work without JavaScript", async ({ page, jsEnabled, learner }) => {
    await openCatalog(page, learner, jsEnabled);
    const pages = page.getByRole("navigation", { name: "Pages" });
    await expect(pages).toBeVisible();
    await expect(pages.locator("[aria-current=page]")).toHaveText("1");
    await expect(pages.getByText("Previous")).toHaveAttribute("aria-disabled", "true");
    await pages.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL("/learn/catalog?page=2");
    await expect(pages.locator("[aria-current=page]")).toHaveText("2");
    await expect(cards(page)).toHaveCount(CATALOG_TOTAL - 24);
    await expect(card(page, "Welcome to Northwind")).toBeVisible();
    await expect(card(page, "Arabic for Beginners")).toHaveCount(0);
    await expect(pages.getByText("Next")).toHaveAttribute("aria-disabled", "true");
    await pages.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(/\/learn\/catalog\??$/);
    await expect(card(page, "Arabic for Beginners")).toBeVisible();
    await pages.getByRole("link", { name: "Page 2" }).click();
    await expect(page).toHaveURL("/learn/catalog?page=2");
    await expect(card(page, "Welcome to Northwind")).toBeVisible();
  });

  test("the catalog is accessible", { tag: "@js-only" }, async ({ page, jsEnabled, learner }) => {
    await openCatalog(page, learner, jsEnabled);
    await expect(cards(page)).toHaveCount(24);
    await expectAccessible(page);
  });

  test("the detail of an enrolled course shows a disabled 'In my courses' button", async ({
    page,
    jsEnabled,
    learner,
  }) => {
    await openCatalog(page, learner, jsEnabled);
    const href = await catalogHref(page, "Python for Data Analysis");
    const id = href.split("/").at(-1);
    await page.goto(href);
    await expect(page.getByRole("heading", { level: 1, name: "Python for Data Analysis" })).toBeVisible();
    await expect(page.getByRole("button", { name: "In my courses" })).toBeDisabled();
    await expect(page.getByRole("link", { name: "Go to the course" })).toHaveAttribute("href", `/learn/courses/${id}`);
    await expect(page.getByRole("button", { name: "Add to my courses" })).toHaveCount(0);
    await expectAccessible(page);

    // A course ada is not in offers the button instead.
    await page.goto(await catalogHref(page, "Coaching Skills Workshop"));
    await expect(page.getByRole("heading", { level: 1, name: "Coaching Skills Workshop" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Add to my courses" })).toBeEnabled();
    await expect(page.getByRole("button", { name: "In my courses" })).toHaveCount(0);
    await expectAccessible(page);
  });

  test(
    "an unknown course id shows 'Course is not available'",
    { tag: "@js-only" },
    async ({ page, jsEnabled, learner }) => {
      await openCatalog(page, learner, jsEnabled);
      for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-course"]) {
        const response = await page.goto(`/learn/catalog/${id}`);
        expect(response?.status(), id).toBe(404);
        await expect(page.getByRole("heading", { level: 1 }), id).toHaveText("Course is not available");
      }
    },
  );

  test("'Add to my courses' enrols ada and lands on My courses with a toast", async ({ page, jsEnabled, learner }) => {
    const name = pick().add;
    await openCatalog(page, learner, jsEnabled);
    const href = await catalogHref(page, name);
    await expect(card(page, name).locator(".cover-badge")).toHaveCount(0);
    await card(page, name).getByRole("link", { name }).click();
    await expect(page).toHaveURL(href);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await page.getByRole("button", { name: "Add to my courses" }).click();
    await expect(page).toHaveURL(/\/learn\/courses$/);
    await expect(toast(page, `“${name}” was added to your courses.`)).toBeVisible();
    const added = card(page, name);
    await expect(added).toBeVisible();
    // Spec 4.11: no workflow and no dates → "Not started", an empty bar, the link with the access id.
    await expect(added.locator(".course-card__footer")).toHaveText("Not started");
    await expect(added.getByRole("progressbar", { name: "Progress" })).toHaveJSProperty("value", 0);
    const id = href.split("/").at(-1);
    await expect(added.getByRole("link")).toHaveAttribute("href", new RegExp(`^/learn/courses/${id}/${UUID}$`));

    // The catalog now shows it as one of ada's courses.
    await page.goto(href);
    await expect(page.getByRole("button", { name: "In my courses" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Add to my courses" })).toHaveCount(0);
  });

  test("a course without self-enrolment says so instead of offering the button; a form sent anyway is refused with a critical toast and nothing is added", async ({
    page,
    jsEnabled,
    learner,
  }) => {
    const name = pick().refused;
    await openCatalog(page, learner, jsEnabled);
    const href = await catalogHref(page, name);
    await page.goto(href);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByRole("note")).toHaveText("This course cannot be added to your courses.");
    await expect(page.getByRole("button", { name: "Add to my courses" })).toHaveCount(0);
    await expectAccessible(page);

    // The form of a page opened before the course stopped allowing it: the API refuses, the page says why.
    const sent = await page.request.post(href, {
      form: { intent: "enrol", enrolId: crypto.randomUUID() },
      headers: { Origin: new URL(page.url()).origin },
      maxRedirects: 0,
    });
    expect(sent.status()).toBe(303);
    expect(sent.headers().location).toBe(href);
    await page.goto(href);
    await expect(
      page.getByRole("alert").filter({ hasText: "This course cannot be added to your courses." }),
    ).toBeVisible();

    await page.goto(`/learn/courses?keyword=${encodeURIComponent(name.toLowerCase())}`);
    await expect(page.getByRole("heading", { name: "No courses match your search" })).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
  });

  test("occflow=addToMyCourses enrols ada, shows the toast and leaves a clean URL", async ({
    page,
    jsEnabled,
    learner,
  }) => {
    const name = pick().occflow;
    await openCatalog(page, learner, jsEnabled);
    const id = (await catalogHref(page, name)).split("/").at(-1);
    await expect(card(page, name).locator(".cover-badge")).toHaveCount(0);
    await page.goto(`/learn/courses?occflow=addToMyCourses&objectiveId=${id}`);
    await expect(page).toHaveURL(/\/learn\/courses$/);
    await expect(toast(page, `“${name}” was added to your courses.`)).toBeVisible();
    await expect(card(page, name)).toBeVisible();
    await expect(card(page, name).locator(".course-card__footer")).toHaveText("Not started");
  });
});
