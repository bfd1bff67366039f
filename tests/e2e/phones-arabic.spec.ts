import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { test, expect, login, chooseLanguage, expectAccessible, type Learner } from "./fixtures";

/**
 * Phones and Arabic — the browser's language through sign-in (item 3), course text in its own
 * direction (item 2), time zones a person can find (item 4), widgets that leave the lesson visible
 * (item 5), the calendar and the table of contents on a phone (item 6), axe's findings (item 7). The
 * sideways-overflow and axe walk of every route is phone-walk.spec.ts. JavaScript on and off (both projects),
 * but the tests tagged @js-only.
 */
test.use({
  learnerRecipe: {
    like: "ada",
    timezone: "Europe/Kiev",
    enrolments: [
      { course: "ml-arabic", selfEnrolled: true, attempts: [{ state: "inProgress", progress: 0.4, startedAgo: 3 }] },
    ],
  },
});

// Sign-ins, several widths and languages, and axe's four variants a test: more than the default 30 s.
test.beforeEach(() => test.setTimeout(120_000));

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** Signs in on the provider's page whatever its language (its fields by id). */
async function signIn(page: Page, who: Learner) {
  await page.locator("#email").fill(who.email);
  await page.locator("#password").fill(who.password);
  await page.locator("form[method=post] button[type=submit]").click();
}

async function myCourseId(page: Page, name: string): Promise<string> {
  await page.goto(`/learn/courses?keyword=${encodeURIComponent(name.toLowerCase())}`);
  const href = await page
    .locator(".card-grid > li.course-card")
    .filter({ has: page.getByRole("heading", { name, exact: true }) })
    .getByRole("link")
    .first()
    .getAttribute("href");
  return new RegExp(`/learn/courses/(${UUID})`).exec(href ?? "")![1];
}

async function lessonUrl(page: Page, courseId: string, name: string | RegExp): Promise<string> {
  await page.goto(`/learn/courses/${courseId}/view/content`);
  // By CSS, not by role: on a phone the table is closed and its links hidden.
  return (await page.locator("nav.toc a").filter({ hasText: name }).first().getAttribute("href"))!;
}

test.describe("item 3: the browser's language, and one language through sign-in", () => {
  test.describe("a browser set to Arabic", () => {
    test.use({ locale: "ar" });

    test(
      "gets Arabic before and after signing in, the portal's name translated",
      { tag: "@js-only" },
      async ({ page, learner }) => {
        await page.goto("/learn/open-catalog");
        await expect(page.locator("html")).toHaveAttribute("lang", "ar");
        await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
        await page.goto("/oidc/login?redirectUrl=%2Flearn%2Fcourses");
        await expect(page.locator("html")).toHaveAttribute("lang", "ar");
        await expect(page.locator("header .portal")).toHaveText("بوابة التعلّم");
        await signIn(page, learner);
        await expect(page).toHaveURL(/\/learn\/courses/);
        await expect(page.locator("html")).toHaveAttribute("lang", "ar");
        await expect(page.locator(".header__brand")).toHaveText("بوابة التعلّم");
        await expectAccessible(page);
      },
    );
  });

  test("a language chosen on the sign-in page carries into the app, and to the learner's other browsers", async ({
    page,
    learner,
    browser,
    baseURL,
  }) => {
    await page.goto("/oidc/login?redirectUrl=%2Flearn%2Fcourses");
    await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
    await page.getByLabel("Language").selectOption("de");
    await page.getByRole("button", { name: "Change" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { name: "Anmelden" })).toBeVisible();
    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learn\/courses/);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.locator(".header__brand")).toHaveText("Lernportal");
    // Saved to the profile: another browser, which chose nothing, opens the app in it after signing in.
    const other = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.use.javaScriptEnabled });
    const second = await other.newPage();
    await second.goto("/oidc/login?redirectUrl=%2Flearn%2Fcourses");
    await expect(second.locator("html")).toHaveAttribute("lang", "en-US");
    await signIn(second, learner);
    await expect(second).toHaveURL(/\/learn\/courses/);
    await expect(second.locator("html")).toHaveAttribute("lang", "de");
    await other.close();
  });

  test("a learner who never chose a language gets each browser's own, signing in from two in turn", async ({
    learner,
    browser,
    baseURL,
  }) => {
    const javaScriptEnabled = test.info().project.use.javaScriptEnabled;
    // Each sign-in in a fresh browser of that language: nothing on it but its Accept-Language.
    const signInFrom = async (locale: string) => {
      const context = await browser.newContext({ baseURL, javaScriptEnabled, locale });
      const page = await context.newPage();
      await page.goto("/oidc/login?redirectUrl=%2Flearn%2Fcourses");
      await signIn(page, learner);
      await expect(page).toHaveURL(/\/learn\/courses/);
      const lang = await page.locator("html").getAttribute("lang");
      await context.close();
      return lang;
    };
    // Before: the second sign-in from an Arabic browser was still English, the next English one Arabic.
    expect(await signInFrom("en-US")).toBe("en-US");
    expect(await signInFrom("ar")).toBe("ar");
    expect(await signInFrom("ar")).toBe("ar");
    expect(await signInFrom("en-US")).toBe("en-US");
  });

  test("the public certificate has the language menu", async ({ page, learner, browser, baseURL }) => {
    await login(page, learner);
    const sql = await myCourseId(page, "SQL Fundamentals");
    await page.goto(`/learn/courses/${sql}`);
    const number = (await page.locator(".certificates tbody tr").first().locator("a").first().textContent())!.trim();
    const visitor = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.use.javaScriptEnabled });
    const public_ = await visitor.newPage();
    await public_.goto(`/learn/certificate/${number}`);
    await public_.locator("details.language-menu > summary").click();
    await public_.getByRole("button", { name: "العربية" }).click();
    await expect(public_.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(public_).toHaveURL(new RegExp(`/learn/certificate/${number}$`));
    await visitor.close();
  });
});

test.describe("item 2: course text keeps its own language and direction", () => {
  test(
    "an English lesson in the Arabic app: left to right, its code too; an Arabic course in the English app: right to left",
    { tag: "@js-only" },
    async ({ page, learner, baseURL }) => {
      await login(page, learner);
      const python = await myCourseId(page, "Python for Data Analysis");
      const arabic = await myCourseId(page, "مقدمة في تعلم الآلة");
      const lesson = await lessonUrl(page, python, "Reading CSV and Excel files");
      const arabicLesson = await lessonUrl(page, arabic, "الانحدار والتصنيف");

      // The Arabic course in the English app.
      await page.goto(arabicLesson);
      await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
      const arText = page.locator(".activity-text");
      await expect(arText).toHaveAttribute("lang", "ar");
      await expect(arText).toHaveAttribute("dir", "rtl");
      await expect(page.getByRole("heading", { level: 1, name: "الانحدار والتصنيف" })).toHaveAttribute("dir", "rtl");
      await expect(page.locator(".toc__name").first()).toHaveAttribute("dir", "rtl");
      // Its code reads left to right inside the right-to-left text.
      expect(await arText.locator("pre").evaluate((el) => getComputedStyle(el).direction)).toBe("ltr");

      // The English course in the Arabic app.
      await chooseLanguage(page, baseURL!, "ar");
      await page.goto(lesson);
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      const text = page.locator(".activity-text");
      await expect(text).toHaveAttribute("lang", "en");
      await expect(text).toHaveAttribute("dir", "ltr");
      expect(
        await text
          .locator("p")
          .first()
          .evaluate((el) => getComputedStyle(el).direction),
      ).toBe("ltr");
      expect(
        await text
          .locator("code")
          .first()
          .evaluate((el) => getComputedStyle(el).direction),
      ).toBe("ltr");
      await expect(page.getByRole("heading", { level: 1, name: "Reading CSV and Excel files" })).toHaveAttribute(
        "lang",
        "en",
      );
      // Course names on My courses carry their language.
      await page.goto("/learn/courses?keyword=python");
      await expect(page.locator(".course-card__title").first()).toHaveAttribute("lang", "en");
      // A discussion post takes its direction from its own text.
      await page.goto(await lessonUrl(page, python, /Discussion: share your first chart/));
      await expect(page.locator(".discussion__body").first()).toHaveAttribute("dir", "auto");
    },
  );
});

test.describe("item 4: time zones a person can find", () => {
  test("IANA's current names; a saved old name kept, shown under the new one; found by country and offset", async ({
    page,
    learner,
    jsEnabled,
  }) => {
    await login(page, learner);
    await page.goto("/learn/profile/time-zone");
    await expect(page.getByText(/^Your time zone: Kyiv, Ukraine \(UTC\+0[23]:00\)$/)).toBeVisible();
    const select = page.getByLabel("Time zones with their current UTC offset");
    await expect(select.locator("option", { hasText: /^Kolkata, India/ })).toHaveCount(1);
    await expect(select.locator("option", { hasText: /Calcutta|Kiev\b/ })).toHaveCount(0);
    // The learner's saved name (Europe/Kiev) is the chosen one, under its current name.
    await expect(select.locator("optgroup").first().locator("option").first()).toHaveAttribute("value", "Europe/Kiev");
    if (jsEnabled) {
      await expect(page.getByText(/^Chosen: Kyiv, Ukraine/)).toBeVisible();
      const search = page.getByLabel("Filter time zones");
      await search.fill("Ukraine");
      await expect(select.locator("option")).toHaveText([/^Kyiv, Ukraine/, /^Simferopol, Ukraine/]);
      await search.fill("+05:30");
      await expect(select.locator("option", { hasText: "Kolkata, India" })).toHaveCount(1);
      await search.fill("India");
      await select.selectOption("Asia/Kolkata");
      await search.fill("");
    } else {
      await select.selectOption({ label: "Kolkata, India (\u2066UTC+05:30\u2069)" });
    }
    await page.getByRole("button", { name: "Save time zone" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Time zone saved: Asia/Kolkata" })).toBeVisible();
    await expect(page.getByText("Your time zone: Kolkata, India (UTC+05:30)")).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe("item 5 and 6: widgets, the calendar and the table of contents on a phone", () => {
  test(
    "the tutor widget (expanded for this course) never covers the lesson, and shows its whole introduction",
    { tag: "@js-only" },
    async ({ page, learner }) => {
      await login(page, learner);
      const python = await myCourseId(page, "Python for Data Analysis");
      const lab = await lessonUrl(page, python, /Lab: plotting ride patterns/);
      for (const size of [
        { width: 1280, height: 800 },
        { width: 1600, height: 900 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(size);
        await page.goto(lab);
        const widget = page.getByRole("region", { name: "AI tutor" });
        await expect(widget.locator("details")).toHaveAttribute("open", "");
        const w = (await widget.boundingBox())!;
        const a = (await page.locator(".activity-panel").boundingBox())!;
        const overlaps = w.x < a.x + a.width && a.x < w.x + w.width && w.y < a.y + a.height && a.y < w.y + w.height;
        expect(overlaps, `the widget over the activity at ${size.width} px`).toBe(false);
        // Its whole introduction can be read: at the top of its panel, entirely in the window once scrolled to.
        const intro = widget.getByText("Ask about this course. Answers quote the course's own content");
        await intro.scrollIntoViewIfNeeded();
        await expect(intro).toBeInViewport({ ratio: 1 });
        expect(await widget.locator(".tutor-widget__panel").evaluate((el) => el.scrollTop)).toBe(0);
      }
    },
  );

  test(
    "on a phone: the feedback trigger is one small button, the lesson comes before the table of contents",
    { tag: "@js-only" },
    async ({ page, learner }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await login(page, learner);
      const trigger = page.getByRole("link", { name: "Give feedback" });
      await expect(trigger).toBeVisible();
      expect((await trigger.boundingBox())!.height).toBeLessThanOrEqual(44);
      // The user menu's toggle is named on a phone too (axe: summary-name).
      await expect(page.locator("details.user-menu > summary")).toHaveAccessibleName(learner.name);

      const python = await myCourseId(page, "Python for Data Analysis");
      await page.goto(await lessonUrl(page, python, "Reading CSV and Excel files"));
      const panel = page.locator("details.toc-panel");
      await expect(panel).not.toHaveAttribute("open");
      await expect(page.getByRole("navigation", { name: "Table of contents" })).toBeHidden();
      await expect(page.getByRole("heading", { level: 1, name: "Reading CSV and Excel files" })).toBeInViewport();
      // Still one tap away.
      await panel.locator("> summary").click();
      await expect(page.getByRole("navigation", { name: "Table of contents" })).toBeVisible();
      // On a wide screen it is open, with or without JavaScript.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.reload();
      await expect(page.getByRole("navigation", { name: "Table of contents" })).toBeVisible();
    },
  );

  test(
    "on a phone the month is marks, the chosen day's items below it; the feed is found from the top",
    { tag: "@js-only" },
    async ({ page, learner }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await login(page, learner);
      await page.goto("/learn/calendar");
      const grid = page.locator("table.month-grid");
      await expect(grid.locator(".month-grid__items").first()).toBeHidden();
      const mark = grid.locator("a.month-grid__jump").first();
      await expect(mark).toBeVisible();
      const target = (await mark.getAttribute("href"))!;
      await mark.click();
      await expect(page.locator(target)).toBeInViewport();
      const day = page.locator("section.day").filter({ has: page.locator(target) });
      await expect(day.getByRole("listitem").first()).toBeVisible();
      // Cell widths stay whole days (no titles broken into letters).
      const cell = (await grid.locator("td.month-grid__day").first().boundingBox())!;
      expect(cell.width).toBeGreaterThan(30);
      await page.goto("/learn/calendar");
      await page.getByRole("link", { name: "Subscribe in your calendar app" }).first().click();
      await expect(page.locator("#calendar-feed")).toBeInViewport();
      await expectAccessible(page);
    },
  );
});

test.describe("item 7: axe's findings", () => {
  test(
    "the PDF and review pages: unique landmarks, nothing outside them",
    { tag: "@js-only" },
    async ({ page, learner }) => {
      // Without JavaScript the walk (phone-walk.spec.ts) runs axe on both pages at both widths, every rule.
      await login(page, learner);
      const python = await myCourseId(page, "Python for Data Analysis");
      const sql = await myCourseId(page, "SQL Fundamentals");
      await page.goto(`/learn/courses/${sql}`);
      const review = (await page.locator(`a[href*="viewType=REVIEW"]`).first().getAttribute("href"))!;
      for (const url of [await lessonUrl(page, python, /Course handbook \(PDF\)/), review]) {
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 800 });
          await page.goto(url);
          await expect(page.locator(".pdf-viewer").first()).toBeVisible();
          const results = await new AxeBuilder({ page }).withRules(["landmark-unique", "region"]).analyze();
          expect(
            results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
          ).toEqual([]);
        }
      }
    },
  );
});
