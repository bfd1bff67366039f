import AxeBuilder from "@axe-core/playwright";
import { test, expect, openSignedIn, expectAccessible, expectNoReact, type Learner } from "./fixtures";
import type { Locator, Page } from "@playwright/test";

/**
 * My courses (spec 2.3, 2.4, 4.11, 5) as ada sees them: each test signs in as a learner of its own
 * like ada (decision 014), with her enrolments from demo/data/learners/ada.json, so no other test
 * changes what a test sees.
 */
test.use({ learnerRecipe: { like: "ada" } });

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const DATE = "[A-Z][a-z]{2} \\d{1,2}, \\d{4}";

/** The 18 courses the demo gives ada that My courses lists, in the list's order (by name). */
const ADA_COURSES = [
  "Anti-Bribery and Corruption",
  "Arbeitssicherheit im Büro: Grundlagen für alle Mitarbeitenden",
  "Capstone Project: Analytics Portfolio",
  "Cyber Security Certification Exam",
  "Data Protection Officer Certification Exam",
  "Data Visualisation with D3.js",
  "GDPR and Data Protection Essentials",
  "Git Workflows for Teams",
  "Giving and Receiving Feedback",
  "Information Security Awareness 2026",
  "Introduction to Machine Learning",
  "Python for Data Analysis",
  "Responsible AI and Ethics",
  "Secure Coding Practices",
  "Spanish Conversation Club",
  "SQL Fundamentals",
  "Strategic Thinking for Managers",
  "Testing Strategies: Unit, Integration and End-to-End",
];

const titles = (page: Page) => page.locator(".card-grid .course-card__title");
const cards = (page: Page) => page.locator(".card-grid > li.course-card");
const card = (page: Page, name: string) =>
  cards(page).filter({ has: page.getByRole("heading", { name, exact: true }) });
const countText = (page: Page) => page.locator(".course-list__count");
const drawer = (page: Page) => page.getByRole("dialog", { name: "Filter courses" });
const filtersButton = (page: Page) => page.locator("#filter-drawer-button");
const badge = (page: Page) => filtersButton(page).locator(".badge");
const toast = (page: Page, text: string) =>
  page.getByRole("region", { name: "Notifications" }).getByText(text, { exact: true });

/** The course id a card links to (/learn/courses/{id}…; the link test follows one to prove it is the course). */
async function courseId(c: Locator): Promise<string> {
  const href = await c.getByRole("link").getAttribute("href");
  const id = new RegExp(`^/learn/courses/(${UUID})(?:/|$)`).exec(href ?? "")?.[1];
  expect(id, `course id in ${href}`).toBeTruthy();
  return id!;
}

/** With JavaScript, waits until React has hydrated the search box (its props are attached to the DOM node). */
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

async function openMyCourses(page: Page, learner: Learner, jsEnabled: boolean, path = "/learn/courses") {
  await openSignedIn(page, learner, path);
  await expect(page.getByRole("heading", { level: 1, name: "My courses" })).toBeVisible();
  await hydrated(page, jsEnabled);
}

async function openDrawer(page: Page) {
  await filtersButton(page).click();
  await expect(drawer(page)).toBeVisible();
  return drawer(page);
}

/** Ticks options in drawer sections ({ section label: option labels }) and applies them. */
async function applyFilters(page: Page, choice: Record<string, string[]>) {
  const d = await openDrawer(page);
  for (const [section, options] of Object.entries(choice)) {
    for (const option of options)
      await d.getByRole("group", { name: section }).getByLabel(option, { exact: true }).check();
  }
  await d.getByRole("button", { name: "Apply filters" }).click();
}

/** The value of a drawer option (a collection, term or attribute id). */
async function optionValue(page: Page, section: string, option: string): Promise<string> {
  const value = await drawer(page)
    .getByRole("group", { name: section })
    .getByLabel(option, { exact: true })
    .getAttribute("value");
  expect(value).toBeTruthy();
  return value!;
}

const query = (page: Page) => new URL(page.url()).searchParams;

test.describe("My courses", () => {
  test(
    "lists ada's courses as a card grid with count, link targets, footers, progress and cover fallback",
    { tag: "@js-only" },
    async ({ page, jsEnabled, learner }) => {
      await openMyCourses(page, learner, jsEnabled);
      await expect(page).toHaveURL(/\/learn\/courses$/);
      await expect(page).toHaveTitle(/My courses/);
      // Exactly hers: no other test adds to this learner's list.
      await expect(titles(page)).toHaveText(ADA_COURSES);
      // Hidden: an archived course, and a ready course whose root activity is archived.
      await expect(card(page, "COBOL Maintenance (retired)")).toHaveCount(0);
      await expect(card(page, "Negotiation Masterclass")).toHaveCount(0);
      // Count text matches the cards (fewer than a page of 25).
      const n = await cards(page).count();
      expect(n).toBeGreaterThanOrEqual(ADA_COURSES.length);
      expect(n).toBeLessThanOrEqual(24); // one page (PAGE_SIZE = 24)
      await expect(countText(page)).toHaveText(`${n} courses`);
      // A grid: the first two cards sit side by side in the first row (measured once the stylesheet applies).
      await expect(page.locator(".card-grid")).toHaveCSS("display", "grid");
      const [a, b] = [await cards(page).nth(0).boundingBox(), await cards(page).nth(1).boundingBox()];
      expect(Math.abs(a!.y - b!.y)).toBeLessThan(1);
      expect(b!.x).toBeGreaterThan(a!.x + a!.width - 1);

      // Spec 4.11 link targets: in progress → content viewer; finished → the course; otherwise → course and access.
      const python = card(page, "Python for Data Analysis");
      const pythonId = await courseId(python);
      await expect(python.getByRole("link", { name: "Python for Data Analysis" })).toHaveAttribute(
        "href",
        `/learn/courses/${pythonId}/view/content`,
      );
      const sql = card(page, "SQL Fundamentals");
      const sqlId = await courseId(sql);
      await expect(sql.getByRole("link")).toHaveAttribute("href", `/learn/courses/${sqlId}`);
      for (const name of [
        "Information Security Awareness 2026",
        "Spanish Conversation Club",
        "Data Visualisation with D3.js",
        "Secure Coding Practices",
      ]) {
        const c = card(page, name);
        const id = await courseId(c);
        const href = await c.getByRole("link").getAttribute("href");
        expect(href, name).toMatch(new RegExp(`^/learn/courses/${id}/${UUID}$`));
        expect(href!.split("/").at(-1), `${name}: the access id is not the course id`).not.toBe(id);
      }

      // Spec 4.11 footers and spec 5 progress (percent of a bar clamped to 0..1).
      const footer = (name: string) => card(page, name).locator(".course-card__footer");
      const progress = (name: string) => card(page, name).getByRole("progressbar", { name: "Progress" });
      const percent = async (name: string) =>
        Number(await progress(name).evaluate((el) => (el as HTMLProgressElement).value));
      await expect(footer("Python for Data Analysis")).toHaveText(new RegExp(`^Started ${DATE} · 35% done$`));
      expect(await percent("Python for Data Analysis")).toBe(35);
      await expect(footer("Arbeitssicherheit im Büro: Grundlagen für alle Mitarbeitenden")).toHaveText(
        new RegExp(`^Started ${DATE} · 80% done$`),
      );
      expect(await percent("Arbeitssicherheit im Büro: Grundlagen für alle Mitarbeitenden")).toBe(80);
      await expect(footer("Capstone Project: Analytics Portfolio")).toHaveText(
        new RegExp(`^Submitted ${DATE} · 100% done$`),
      );
      await expect(footer("Information Security Awareness 2026")).toHaveText(new RegExp(`^Due ${DATE}$`));
      expect(await percent("Information Security Awareness 2026")).toBe(0);
      await expect(footer("Spanish Conversation Club")).toHaveText(new RegExp(`^Available from ${DATE}$`));
      expect(await percent("Spanish Conversation Club")).toBe(0);
      // Neither date: "Not started".
      await expect(footer("Git Workflows for Teams")).toHaveText("Not started");
      expect(await percent("Git Workflows for Teams")).toBe(0);
      await expect(footer("SQL Fundamentals")).toHaveText(new RegExp(`^Completed ${DATE}$`));
      expect(await percent("SQL Fundamentals")).toBe(100);
      await expect(card(page, "Information Security Awareness 2026").locator(".tag--mandatory")).toHaveText(
        "Mandatory",
      );

      // A course with a cover shows its image; one without gets a fallback colour.
      await expect(python.locator("img.course-card__cover")).toHaveAttribute(
        "src",
        /\/learn\/covers\/python-basics\.svg$/,
      );
      const fallbacks = [
        "rgb(31, 95, 168)",
        "rgb(46, 125, 50)",
        "rgb(142, 36, 170)",
        "rgb(198, 40, 40)",
        "rgb(0, 105, 92)",
        "rgb(168, 75, 0)",
        "rgb(69, 90, 100)",
      ];
      const dataViz = card(page, "Data Visualisation with D3.js").locator(".course-card__cover");
      await expect(dataViz).not.toHaveJSProperty("tagName", "IMG");
      expect(fallbacks).toContain(await dataViz.evaluate((el) => getComputedStyle(el).backgroundColor));
      // Cycled by card index: the first card of a list without a cover gets the first colour.
      await page.goto("/learn/courses?keyword=git");
      await expect(titles(page)).toHaveText(["Git Workflows for Teams"]);
      const git = card(page, "Git Workflows for Teams").locator(".course-card__cover");
      await expect(git).toHaveCSS("background-color", fallbacks[0]);
      await expect(git.locator(".course-card__initials")).toHaveText(/^gi$/i);

      // The id in a card's link is the course's: following it opens that course.
      await page.goto(`/learn/courses/${sqlId}`);
      await expect(page.getByRole("heading", { level: 1, name: "SQL Fundamentals" })).toBeVisible();
    },
  );

  test("search narrows the list and mirrors the lowercased, left-trimmed text to keyword", async ({
    page,
    jsEnabled,
    learner,
  }) => {
    await openMyCourses(page, learner, jsEnabled);
    const search = page.getByRole("searchbox", { name: "Search my courses" });
    await search.fill("  SQL Fun");
    if (jsEnabled) {
      // Applied by itself after the 500 ms pause (spec 5), no button press.
      await expect(page).toHaveURL(/[?&]keyword=sql\+fun$/);
    } else {
      await page.getByRole("search").getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/[?&]keyword=sql\+fun$/);
    }
    expect(query(page).get("keyword")).toBe("sql fun");
    await expect(titles(page)).toHaveText(["SQL Fundamentals"]);
    await expect(countText(page)).toHaveText("1 course");
    await expect(search).toHaveValue("sql fun");

    await search.fill("no such course anywhere");
    if (!jsEnabled) await search.press("Enter");
    await expect(page).toHaveURL(/keyword=no\+such\+course\+anywhere$/);
    await expect(page.getByRole("heading", { name: "No courses match your search" })).toBeVisible();
    await expect(page.getByText("Try other words or clear some filters.")).toBeVisible();
    await expect(countText(page)).toHaveText("0 courses");
    await expect(cards(page)).toHaveCount(0);
    // Not the "no courses yet" state, which offers the catalog.
    await expect(page.getByRole("heading", { name: "You have no courses yet" })).toHaveCount(0);
  });

  test("collection filter: canonical comma list, badge, and Clear filters", async ({ page, jsEnabled, learner }) => {
    await openMyCourses(page, learner, jsEnabled);
    await expect(badge(page)).toHaveCount(0);
    let d = await openDrawer(page);
    // Nothing is set: Clear filters is a disabled button.
    await expect(d.getByRole("button", { name: "Clear filters" })).toBeDisabled();
    await expect(d.getByRole("heading", { name: "Filter courses" })).toBeVisible();
    // Sections sorted by label.
    await expect(d.locator("legend")).toHaveText([
      "Collection",
      "Format",
      "Language",
      "Level",
      "Priority",
      "Progress",
      "Term",
    ]);
    const compliance = await optionValue(page, "Collection", "Compliance");
    const leadership = await optionValue(page, "Collection", "Leadership");
    await d.getByRole("group", { name: "Collection" }).getByLabel("Compliance").check();
    await d.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(`/learn/courses?collection=${compliance}`);
    await expect(drawer(page)).toBeHidden();
    await expect(badge(page)).toHaveText("1");
    await expect(badge(page)).toHaveAttribute("aria-label", "1 active filter");
    await expect(titles(page)).toContainText([
      "Anti-Bribery and Corruption",
      "Arbeitssicherheit im Büro: Grundlagen für alle Mitarbeitenden",
      "Cyber Security Certification Exam",
      "GDPR and Data Protection Essentials",
      "Information Security Awareness 2026",
      "Responsible AI and Ethics",
      "Secure Coding Practices",
    ]);
    // Every card is in the collection.
    await expect(
      cards(page).filter({ hasNot: page.locator(".tag--collection", { hasText: /^Compliance$/ }) }),
    ).toHaveCount(0);
    await expect(countText(page)).toHaveText(`${await cards(page).count()} courses`);
    // The matching chip shows as selected.
    await expect(
      page.getByRole("navigation", { name: "Collections" }).getByRole("link", { name: "Compliance" }),
    ).toHaveAttribute("aria-current", "true");

    // A second collection: one canonical, comma-separated parameter (not a repeated one).
    d = await openDrawer(page);
    await expect(d.getByRole("group", { name: "Collection" }).getByLabel("Compliance")).toBeChecked();
    await d.getByRole("group", { name: "Collection" }).getByLabel("Leadership").check();
    await d.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(`/learn/courses?collection=${compliance}%2C${leadership}`);
    expect(query(page).getAll("collection")).toEqual([`${compliance},${leadership}`]);
    await expect(badge(page)).toHaveText("2");
    await expect(badge(page)).toHaveAttribute("aria-label", "2 active filters");
    await expect(titles(page)).toContainText([
      "Anti-Bribery and Corruption",
      "Giving and Receiving Feedback",
      "Strategic Thinking for Managers",
    ]);
    await expect(card(page, "Python for Data Analysis")).toHaveCount(0);

    // With a filter set, Clear filters is enabled and clears it.
    d = await openDrawer(page);
    await d.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/learn\/courses$/);
    await expect(badge(page)).toHaveCount(0);
    await expect(titles(page)).toContainText(ADA_COURSES);
    await openDrawer(page);
    await expect(drawer(page).getByRole("button", { name: "Clear filters" })).toBeDisabled();
    await expect(
      drawer(page).getByRole("group", { name: "Collection" }).getByRole("checkbox", { checked: true }),
    ).toHaveCount(0);
    await drawer(page).getByRole("button", { name: "Close filters" }).click();

    // A collection chip sets the same filter, and the drawer shows it.
    const chips = page.getByRole("navigation", { name: "Collections" });
    await chips.getByRole("link", { name: "Leadership" }).click();
    await expect(page).toHaveURL(`/learn/courses?collection=${leadership}`);
    await expect(chips.getByRole("link", { name: "Leadership" })).toHaveAttribute("aria-current", "true");
    await expect(badge(page)).toHaveText("1");
    await expect(titles(page)).toContainText(["Giving and Receiving Feedback", "Strategic Thinking for Managers"]);
    await expect(
      cards(page).filter({ hasNot: page.locator(".tag--collection", { hasText: /^Leadership$/ }) }),
    ).toHaveCount(0);
    await openDrawer(page);
    await expect(
      drawer(page).getByRole("group", { name: "Collection" }).getByRole("checkbox", { checked: true }),
    ).toHaveCount(1);
    await expect(drawer(page).getByRole("group", { name: "Collection" }).getByLabel("Leadership")).toBeChecked();
  });

  test("term filter lists only terms that have courses", async ({ page, jsEnabled, learner }) => {
    await openMyCourses(page, learner, jsEnabled);
    const d = await openDrawer(page);
    const terms = d.getByRole("group", { name: "Term" });
    await expect(terms.locator("label")).toHaveText(["Autumn 2026", "Spring 2026", "Spring 2027"]);
    await expect(d.getByText("Archive term (no courses)")).toHaveCount(0);
    const spring = await optionValue(page, "Term", "Spring 2026");
    await terms.getByLabel("Spring 2026").check();
    await d.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(`/learn/courses?term=${spring}`);
    await expect(titles(page)).toHaveText([
      "Arbeitssicherheit im Büro: Grundlagen für alle Mitarbeitenden",
      "Data Visualisation with D3.js",
      "Introduction to Machine Learning",
      "Python for Data Analysis",
    ]);
    await expect(countText(page)).toHaveText("4 courses");
    await expect(badge(page)).toHaveText("1");
  });

  test("progress filter follows spec 4.11: not started, in progress, completed", async ({
    page,
    jsEnabled,
    learner,
  }) => {
    await openMyCourses(page, learner, jsEnabled);
    await applyFilters(page, { Progress: ["Not started"] });
    await expect(page).toHaveURL("/learn/courses?courseProgress=notStarted");
    // No workflow and no record.
    await expect(titles(page)).toContainText([
      "Information Security Awareness 2026",
      "Spanish Conversation Club",
      "Strategic Thinking for Managers",
    ]);
    for (const name of [
      "Anti-Bribery and Corruption",
      "Python for Data Analysis",
      "SQL Fundamentals",
      "GDPR and Data Protection Essentials",
      "Data Visualisation with D3.js",
    ]) {
      await expect(card(page, name), name).toHaveCount(0);
    }

    await page.goto("/learn/courses?courseProgress=inProgress");
    // Workflow in progress, in grading or grading approved; not submitted (2) nor graded (4).
    await expect(titles(page)).toContainText([
      "Anti-Bribery and Corruption",
      "Arbeitssicherheit im Büro: Grundlagen für alle Mitarbeitenden",
      "Capstone Project: Analytics Portfolio",
      "Giving and Receiving Feedback",
      "Python for Data Analysis",
    ]);
    for (const name of [
      "Data Visualisation with D3.js",
      "Secure Coding Practices",
      "Information Security Awareness 2026",
      "SQL Fundamentals",
    ]) {
      await expect(card(page, name), name).toHaveCount(0);
    }

    // Without a query the page restores the last filters (spec 9); ?clear starts afresh.
    await page.goto("/learn/courses?clear");
    await expect(page).toHaveURL(/\/learn\/courses$/);
    await applyFilters(page, { Progress: ["Completed"] });
    await expect(page).toHaveURL("/learn/courses?courseProgress=completed");
    // Finished, or an imported record without a workflow (GDPR).
    await expect(titles(page)).toContainText([
      "Cyber Security Certification Exam",
      "GDPR and Data Protection Essentials",
      "Introduction to Machine Learning",
      "Responsible AI and Ethics",
      "SQL Fundamentals",
      "Testing Strategies: Unit, Integration and End-to-End",
    ]);
    await expect(card(page, "Python for Data Analysis")).toHaveCount(0);
    await expect(card(page, "Information Security Awareness 2026")).toHaveCount(0);

    // Two values: one comma list; the badge counts both.
    await applyFilters(page, { Progress: ["Not started"] });
    await expect(page).toHaveURL("/learn/courses?courseProgress=notStarted%2Ccompleted");
    await expect(badge(page)).toHaveText("2");
    await expect(titles(page)).toContainText(["Information Security Awareness 2026", "SQL Fundamentals"]);
    await expect(card(page, "Python for Data Analysis")).toHaveCount(0);
  });

  test("priority filter: mandatory and optional", async ({ page, jsEnabled, learner }) => {
    await openMyCourses(page, learner, jsEnabled);
    await applyFilters(page, { Priority: ["Mandatory"] });
    await expect(page).toHaveURL("/learn/courses?coursePriority=mandatory");
    await expect(titles(page)).toHaveText([
      "Anti-Bribery and Corruption",
      "Arbeitssicherheit im Büro: Grundlagen für alle Mitarbeitenden",
      "GDPR and Data Protection Essentials",
      "Information Security Awareness 2026",
    ]);
    await expect(countText(page)).toHaveText("4 courses");
    await expect(cards(page).locator(".tag--mandatory")).toHaveCount(4);

    const d = await openDrawer(page);
    await d.getByRole("group", { name: "Priority" }).getByLabel("Mandatory").uncheck();
    await d.getByRole("group", { name: "Priority" }).getByLabel("Optional").check();
    await d.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL("/learn/courses?coursePriority=optional");
    await expect(titles(page)).toContainText([
      "Python for Data Analysis",
      "Spanish Conversation Club",
      "SQL Fundamentals",
    ]);
    await expect(cards(page).locator(".tag--mandatory")).toHaveCount(0);
    await expect(badge(page)).toHaveText("1");
  });

  test("a category attribute filter", async ({ page, jsEnabled, learner }) => {
    await openMyCourses(page, learner, jsEnabled);
    await openDrawer(page);
    const advanced = await optionValue(page, "Level", "Advanced");
    const level = await drawer(page).getByRole("group", { name: "Level" }).getByLabel("Advanced").getAttribute("name");
    expect(level).toMatch(new RegExp(`^category\\[${UUID}\\]$`));
    await drawer(page).getByRole("group", { name: "Level" }).getByLabel("Advanced").check();
    await drawer(page).getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(new RegExp(`/learn/courses\\?category%5B${UUID}%5D=${advanced}$`));
    expect(query(page).get(level!)).toBe(advanced);
    await expect(titles(page)).toContainText([
      "Capstone Project: Analytics Portfolio",
      "Cyber Security Certification Exam",
      "Strategic Thinking for Managers",
    ]);
    await expect(card(page, "Python for Data Analysis")).toHaveCount(0);
    await expect(card(page, "Information Security Awareness 2026")).toHaveCount(0);
    await expect(badge(page)).toHaveText("1");
    await openDrawer(page);
    await expect(drawer(page).getByRole("group", { name: "Level" }).getByLabel("Advanced")).toBeChecked();
  });

  test("the filter drawer is a popover; with JavaScript focus stays inside and Escape closes it", async ({
    page,
    jsEnabled,
    learner,
  }) => {
    await openMyCourses(page, learner, jsEnabled);
    await expect(drawer(page)).toBeHidden();
    const button = filtersButton(page);
    await expect(button).toHaveAccessibleName("Filters");
    await button.click();
    const d = drawer(page);
    await expect(d).toBeVisible();
    const close = d.getByRole("button", { name: "Close filters" });
    const apply = d.getByRole("button", { name: "Apply filters" });
    if (jsEnabled) {
      // Opening moves focus to the first focusable element (the close button).
      await expect(close).toBeFocused();
      // Tab from the last focusable element wraps to the first, Shift+Tab from the first to the last.
      await apply.focus();
      await page.keyboard.press("Tab");
      await expect(close).toBeFocused();
      await page.keyboard.press("Shift+Tab");
      await expect(apply).toBeFocused();
      // Tabbing through the whole drawer never leaves it.
      const stops = await d.locator("button:not([disabled]), a[href], input").count();
      for (let i = 0; i < stops + 1; i++) {
        await page.keyboard.press("Tab");
        expect(await d.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      }
      await page.keyboard.press("Escape");
      await expect(d).toBeHidden();
      // Focus returns to the Filters button.
      await expect(button).toBeFocused();
    } else {
      // Without JavaScript the browser's popover still opens and closes the drawer (no focus trap).
      await expectNoReact(page);
      await close.click();
      await expect(d).toBeHidden();
      await button.click();
      await expect(d).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(d).toBeHidden();
    }
    // The close button closes it in both.
    await button.click();
    await expect(d).toBeVisible();
    await close.click();
    await expect(d).toBeHidden();
  });

  test("unknown filter values are removed with a toast and the URL rewritten", async ({ page, jsEnabled, learner }) => {
    await openMyCourses(page, learner, jsEnabled);
    const response = await page.goto("/learn/courses?collection=unknown-id&courseProgress=bogus");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(/\/learn\/courses$/);
    await expect(toast(page, "Some filters are no longer available and were removed.")).toBeVisible();
    await expect(titles(page)).toContainText(ADA_COURSES);

    // Known values stay, unknown ones go.
    await page.goto("/learn/courses?coursePriority=mandatory,sometimes&term=no-such-term");
    await expect(page).toHaveURL("/learn/courses?coursePriority=mandatory");
    await expect(toast(page, "Some filters are no longer available and were removed.")).toBeVisible();
    await expect(countText(page)).toHaveText("4 courses");
  });

  test("unknown parameter names are dropped without a toast", async ({ page, jsEnabled, learner }) => {
    await openMyCourses(page, learner, jsEnabled);
    await page.goto("/learn/courses?utm_source=mail&coursePriority=mandatory&sort=desc");
    await expect(page).toHaveURL("/learn/courses?coursePriority=mandatory");
    await expect(countText(page)).toHaveText("4 courses");
    await expect(page.locator(".toast")).toHaveCount(0);
  });

  test("selfRegistered is removed with the accountCreated toast", async ({ page, jsEnabled, learner }) => {
    await openMyCourses(page, learner, jsEnabled);
    await page.goto("/learn/courses?selfRegistered=true");
    await expect(page).toHaveURL(/\/learn\/courses$/);
    await expect(toast(page, "Your account has been created. Welcome!")).toBeVisible();
    await expect(titles(page)).toContainText(ADA_COURSES);
  });

  test("garbled query strings give the page, not a server error", async ({ page, jsEnabled, learner }) => {
    await openMyCourses(page, learner, jsEnabled);
    for (const q of [
      "?%E0%A4%A&category[=1",
      "?category[]=x&category[[a]]=1&%zz=%",
      "?keyword=%F0%9F%98&page=-1&page=99999999999999999999",
      "?collection=,,,&term=%00",
    ]) {
      const response = await page.goto(`/learn/courses${q}`);
      expect(response?.status(), q).toBe(200);
      await expect(page.getByRole("heading", { level: 1, name: "My courses" }), q).toBeVisible();
      expect(new URL(page.url()).pathname, q).toBe("/learn/courses");
    }
  });

  test("filters persist: back through the Courses menu they are restored; Clear filters forgets them", async ({
    page,
    jsEnabled,
    learner,
  }) => {
    await openMyCourses(page, learner, jsEnabled);
    await applyFilters(page, { Priority: ["Mandatory"] });
    await expect(page).toHaveURL("/learn/courses?coursePriority=mandatory");
    const menu = page.getByRole("navigation", { name: "Main navigation" }).last();
    await menu.getByRole("link", { name: "Catalog" }).click();
    await expect(page).toHaveURL(/\/learn\/catalog$/);
    await expect(page.getByRole("heading", { level: 1, name: "Catalog" })).toBeVisible();
    await menu.getByRole("link", { name: "Courses" }).click();
    await expect(page).toHaveURL("/learn/courses?coursePriority=mandatory");
    await expect(countText(page)).toHaveText("4 courses");
    await expect(badge(page)).toHaveText("1");

    const d = await openDrawer(page);
    await d.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/learn\/courses$/);
    await expect(badge(page)).toHaveCount(0);
    await menu.getByRole("link", { name: "Catalog" }).click();
    await expect(page).toHaveURL(/\/learn\/catalog$/);
    await menu.getByRole("link", { name: "Courses" }).click();
    await expect(page).toHaveURL(/\/learn\/courses$/);
    await expect(titles(page)).toContainText(ADA_COURSES);
  });

  test(
    "with fewer courses than fit on a page there is no pagination",
    { tag: "@js-only" },
    async ({ page, jsEnabled, learner }) => {
      await openMyCourses(page, learner, jsEnabled);
      await expect(titles(page)).toContainText(ADA_COURSES);
      // A page holds 24 cards (app/common/constants.ts); the catalog tests cover the page links.
      expect(await cards(page).count()).toBeLessThanOrEqual(24);
      await expect(page.getByRole("navigation", { name: "Pages" })).toHaveCount(0);
    },
  );

  test("card and chip links: with JavaScript in the app (prefetch on hover, no reload), without it plain links", async ({
    page,
    jsEnabled,
    learner,
  }) => {
    await openMyCourses(page, learner, jsEnabled);
    // A marker on this document: it survives only a navigation inside the app.
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    const sameDocument = () => page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument === true);
    const how = jsEnabled ? "navigates inside the app" : "loads the page";

    const sql = card(page, "SQL Fundamentals");
    const sqlId = await courseId(sql);
    if (jsEnabled) {
      // Hover: after a short rest the course's data is prefetched, as a <Link prefetch="intent"> does.
      const prefetched = page.waitForRequest((r) => r.url().includes(`/learn/courses/${sqlId}.data`));
      await sql.getByRole("link").hover();
      await prefetched;
      await expect(page.locator(`link[rel="prefetch"][href*="/learn/courses/${sqlId}.data"]`)).toHaveCount(1);
    }

    await sql.getByRole("link").click();
    await expect(page.getByRole("heading", { level: 1, name: "SQL Fundamentals" })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/learn/courses/${sqlId}$`));
    expect(await sameDocument(), `a click ${how}`).toBe(jsEnabled);

    // Back, then the keyboard: Enter on a focused card link.
    await page.goto("/learn/courses");
    await hydrated(page, jsEnabled);
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    const git = card(page, "Git Workflows for Teams");
    const gitId = await courseId(git);
    await git.getByRole("link").focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/learn/courses/${gitId}/${UUID}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Git Workflows for Teams" })).toBeVisible();
    expect(await sameDocument(), `Enter ${how}`).toBe(jsEnabled);

    // A collection chip (a plain link too) filters; with JavaScript it does not scroll back to the top.
    await page.goto("/learn/courses");
    await hydrated(page, jsEnabled);
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    const chip = page.getByRole("navigation", { name: "Collections" }).getByRole("link", { name: "Leadership" });
    await page.setViewportSize({ width: 1280, height: 400 });
    await page.evaluate(() => window.scrollTo(0, 120));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await chip.evaluate((a) => (a as HTMLAnchorElement).click());
    await expect(page).toHaveURL(/\/learn\/courses\?collection=/);
    await expect(chip).toHaveAttribute("aria-current", "true");
    expect(await sameDocument(), `a chip ${how}`).toBe(jsEnabled);
    // Not back to the top, as a navigation without preventScrollReset would be.
    if (jsEnabled) expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  });

  test("My courses is accessible", { tag: "@js-only" }, async ({ page, jsEnabled, learner }) => {
    await openMyCourses(page, learner, jsEnabled);
    await expect(titles(page)).toContainText(ADA_COURSES);
    await expectAccessible(page);
  });

  test("My courses is accessible with the filter drawer open", async ({ page, jsEnabled, learner }) => {
    await openMyCourses(page, learner, jsEnabled);
    await openDrawer(page);
    if (jsEnabled) {
      await expectAccessible(page);
      return;
    }
    // expectAccessible re-opens the page, with the drawer closed; check the open drawer in a
    // script-enabled copy of this page whose own scripts are blocked, as the fixture does.
    const ctx = await page.context().browser()!.newContext({ javaScriptEnabled: true, viewport: page.viewportSize() });
    try {
      await ctx.addCookies(await page.context().cookies());
      const target = await ctx.newPage();
      await target.route("**/*.js", (route) => route.abort());
      await target.goto(page.url());
      await openDrawer(target);
      const results = await new AxeBuilder({ page: target })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
        .analyze();
      const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual(
        [],
      );
    } finally {
      await ctx.close();
    }
  });

  test("in Arabic the layout is right-to-left: sidebar on the right, first card on the right of the first row", async ({
    page,
    jsEnabled,
    learner,
  }) => {
    await openMyCourses(page, learner, jsEnabled);
    await page.locator("details.language-menu summary").click();
    await page.getByRole("button", { name: "العربية" }).click();
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page).toHaveURL(/\/learn\/courses$/);
    await expect(cards(page).first()).toBeVisible();
    // Measured once the stylesheet applies.
    await expect(page.locator(".card-grid")).toHaveCSS("display", "grid");
    const width = page.viewportSize()!.width;
    const sidebar = await page.locator("nav.sidebar").boundingBox();
    expect(sidebar!.x).toBeGreaterThan(width / 2);
    const first = await cards(page).nth(0).locator(".course-card__cover").boundingBox();
    const second = await cards(page).nth(1).locator(".course-card__cover").boundingBox();
    const grid = await page.locator(".card-grid").boundingBox();
    // Same row, the first card to the right of the second, flush with the grid's right edge.
    expect(Math.abs(first!.y - second!.y)).toBeLessThan(1);
    expect(first!.x).toBeGreaterThan(second!.x);
    expect(Math.abs(first!.x + first!.width - (grid!.x + grid!.width))).toBeLessThan(2);
  });
});
