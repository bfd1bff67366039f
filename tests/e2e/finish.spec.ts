import { test, expect, login, expectAccessible, type Learner } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * What the existing screens left out. Each test signs in as a learner of its own (decision 014).
 */
/** Fills the provider's sign-in form the browser is on. */
async function signInHere(page: Page, learner: Learner) {
  await expect(page.getByRole("heading", { name: /sign in/i })).toBeVisible();
  await page.getByLabel(/e-mail/i).fill(learner.email);
  await page.getByLabel(/password/i).fill(learner.password);
  await page.getByRole("button", { name: /sign in/i }).click();
}

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** Opens a course's page from its card on My courses (the page the learner is on). */
async function openFromMyCourses(page: Page, name: string) {
  await page
    .locator(".card-grid > li.course-card")
    .filter({ has: page.getByRole("heading", { name, exact: true }) })
    .getByRole("link")
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

test.describe("occflow (spec 4.14)", () => {
  test("'Sign in and start the course' enrols, starts the attempt and lands in the content", async ({
    page,
    learner,
  }) => {
    await page.goto("/learn/open-catalog");
    await page
      .locator(".card-grid > li.course-card")
      .filter({ has: page.getByRole("heading", { name: "SQL Fundamentals", exact: true }) })
      .getByRole("link")
      .click();
    await expect(page).toHaveURL(new RegExp(`/learn/open-catalog/${UUID}/view/details$`));
    const id = new URL(page.url()).pathname.split("/")[3];
    await page.getByRole("link", { name: "Sign in and start the course" }).click();
    await signInHere(page, learner);
    await expect(page).toHaveURL(new RegExp(`/learn/courses/${id}/view/content`));
    await expect(page.getByRole("navigation", { name: "Table of contents" })).toBeVisible();
    // The course is the learner's, in progress.
    await page.goto(`/learn/courses/${id}`);
    await expect(page.getByRole("link", { name: "Continue" })).toBeVisible();
  });
});

test.describe("breadcrumbs and the user menu (spec 1, 2.2)", () => {
  const crumbs = (page: Page) => page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("listitem");

  test("inside a course the breadcrumbs start with the list the learner came from", async ({ page, newLearner }) => {
    const learner = await newLearner({ like: "ada" });
    await login(page, learner, "/learn/courses");
    const card = page
      .locator(".card-grid > li.course-card")
      .filter({ has: page.getByRole("heading", { name: "SQL Fundamentals", exact: true }) });
    await card.getByRole("link").first().click();
    await expect(page.getByRole("heading", { level: 1, name: "SQL Fundamentals" })).toBeVisible();
    const courseUrl = page.url();
    await expect(crumbs(page)).toHaveText(["My courses", "SQL Fundamentals"]);
    await expect(crumbs(page).first().getByRole("link")).toHaveAttribute("href", "/learn/courses");

    // From the catalog: its detail page, and the same course page, now start with the catalog.
    await page.goto("/learn/catalog?keyword=python");
    await page.getByRole("link", { name: "Python for Data Analysis", exact: true }).first().click();
    await expect(crumbs(page)).toHaveText(["Catalog", "Python for Data Analysis"]);
    await page.goto(courseUrl);
    await expect(crumbs(page)).toHaveText(["Catalog", "SQL Fundamentals"]);
    await expect(crumbs(page).first().getByRole("link")).toHaveAttribute("href", "/learn/catalog");
    await page.goto(`${courseUrl}/view/content`);
    await expect(crumbs(page)).toHaveText(["Catalog", "SQL Fundamentals"]);
  });

  test("the user menu's admin entry leads to ADMIN_URL", { tag: "@js-only" }, async ({ page, newLearner }) => {
    const learner = await newLearner({ like: "grace" });
    await login(page, learner);
    await page.locator("details.user-menu > summary").click();
    await expect(page.getByRole("link", { name: "Admin panel" })).toHaveAttribute("href", "/admin/console");
  });
});

test.describe("finishing an attempt (spec 4.5, 7.3; decision 030)", () => {
  test.use({
    learnerRecipe: {
      enrolments: [
        {
          course: "git-workflows",
          selfEnrolled: true,
          attempts: [{ state: "graded", progress: 1, startedAgo: 6, submittedAgo: 2, score: 85 }],
        },
      ],
    },
  });

  test("a graded attempt is finished on the course page, then the course can be taken again", async ({
    page,
    learner,
  }) => {
    await login(page, learner, "/learn/courses");
    await openFromMyCourses(page, "Git Workflows for Teams");
    const finish = page.getByRole("button", { name: "Finish the attempt" });
    await expect(finish).toBeVisible();
    await expect(finish).toHaveAccessibleDescription(/Finishing accepts your result/);
    await expect(page.getByRole("button", { name: "Start again" })).toHaveCount(0);
    await expectAccessible(page);

    await finish.click();
    await expect(
      page.getByRole("region", { name: "Notifications" }).getByText("The attempt is finished."),
    ).toBeVisible();
    await expect(page.getByRole("region", { name: "Results" }).getByText("Finished")).toBeVisible();
    await expect(page.getByRole("button", { name: "Finish the attempt" })).toHaveCount(0);

    await page.getByRole("button", { name: "Start again" }).click();
    await expect(page).toHaveURL(/\/view\/content/);
    await page.goBack();
    await page.reload();
    await expect(page.getByRole("link", { name: "Continue" })).toBeVisible();
    await expect(page.getByText("1 previous attempt")).toBeVisible();
  });
});

test.describe("course details of spec 3 in the viewer", () => {
  test.use({
    learnerRecipe: {
      enrolments: [
        { course: "learning-survey", attempts: [{ state: "inProgress", progress: 0, startedAgo: 1 }] },
        { course: "git-workflows", attempts: [{ state: "inProgress", progress: 0, startedAgo: 1 }] },
      ],
    },
  });

  async function openContent(page: Page, name: string) {
    await page.goto(`/learn/courses?keyword=${encodeURIComponent(name.split(" ")[0].toLowerCase())}`);
    await page
      .locator(".card-grid > li.course-card")
      .filter({ has: page.getByRole("heading", { name, exact: true }) })
      .getByRole("link")
      .first()
      .click();
    // A course in progress opens in the content.
    await expect(page).toHaveURL(/\/view\/content/);
    await expect(page.locator(".activity-panel h1")).toBeVisible();
  }

  test(
    "a course without mobile support says so on mobile widths only (supportMobileView)",
    { tag: "@js-only" },
    async ({ page, learner }) => {
      await login(page, learner, "/learn/courses");
      await openContent(page, "Quarterly Learning Survey");
      const notice = page.getByRole("note").filter({ hasText: "not made for small screens" });
      await expect(notice).toBeHidden();
      await page.setViewportSize({ width: 800, height: 900 });
      await expect(notice).toBeVisible();
      // A course that supports mobile widths has no such notice.
      await openContent(page, "Git Workflows for Teams");
      await expect(page.getByRole("note").filter({ hasText: "not made for small screens" })).toHaveCount(0);
    },
  );

  test("the viewer offers full screen where the course supports it (supportFullscreenView)", async ({
    page,
    learner,
    jsEnabled,
  }) => {
    await login(page, learner, "/learn/courses");
    await openContent(page, "Git Workflows for Teams");
    const toggle = page.getByRole("button", { name: "Full screen" });
    if (!jsEnabled) {
      // The Fullscreen API needs JavaScript: no button that could not work.
      await expect(toggle).toHaveCount(0);
      return;
    }
    await toggle.click();
    await expect(page.getByRole("button", { name: "Exit full screen" })).toHaveAttribute("aria-pressed", "true");
    expect(await page.evaluate(() => document.fullscreenElement?.className)).toBe("activity-panel");
    await page.getByRole("button", { name: "Exit full screen" }).click();
    await expect(page.getByRole("button", { name: "Full screen" })).toHaveAttribute("aria-pressed", "false");
  });
});

test.describe("spec 9 with JavaScript: the blocking loader", () => {
  test.use({
    learnerRecipe: {
      enrolments: [
        {
          course: "git-workflows",
          selfEnrolled: true,
          attempts: [{ state: "graded", progress: 1, startedAgo: 6, submittedAgo: 2, score: 85 }],
        },
      ],
    },
  });

  test("a command that waits for the server shows the blocking loader after 300 ms, then removes it", async ({
    page,
    learner,
    jsEnabled,
  }) => {
    await login(page, learner, "/learn/courses");
    await page
      .locator(".card-grid > li.course-card")
      .filter({ has: page.getByRole("heading", { name: "Git Workflows for Teams", exact: true }) })
      .getByRole("link")
      .first()
      .click();
    if (!jsEnabled) {
      // Without JavaScript the browser's own page load is the indicator: the overlay stays hidden.
      await page.getByRole("button", { name: "Finish the attempt" }).click();
      await expect(page.locator(".blocking-loader")).toHaveAttribute("data-shown", "false");
      return;
    }
    await page.waitForFunction(() => "__reactRouterRouteModules" in window);
    // The server takes a second to answer this command.
    let release = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname.endsWith(".data"),
      async (route) => {
        if (route.request().method() === "POST") await answered;
        await route.continue();
      },
    );
    const loader = page.locator(".blocking-loader");
    await expect(loader).toHaveAttribute("data-shown", "false");
    await page.getByRole("button", { name: "Finish the attempt" }).click();
    await expect(loader).toHaveAttribute("data-shown", "true");
    await expect(page.getByRole("status").filter({ hasText: "Loading…" })).toBeAttached();
    release();
    await expect(
      page.getByRole("region", { name: "Notifications" }).getByText("The attempt is finished."),
    ).toBeVisible();
    await expect(loader).toHaveAttribute("data-shown", "false");
  });
});

test.describe("spec 8 / 9: the share link", () => {
  test.use({ learnerRecipe: { like: "ada" } });

  test("spec 9: two actions in view, the others under 'More actions' (keyboard, and without JavaScript)", async ({
    page,
    learner,
    jsEnabled,
  }) => {
    await login(page, learner, "/learn/courses");
    await openFromMyCourses(page, "SQL Fundamentals");
    const side = page.getByRole("complementary", { name: "Course actions" });
    const more = side.locator("details.more-actions");
    const inView = side.locator(".course-actions > .limited-actions__item");
    await expect(inView).toHaveCount(2);
    await expect(inView.nth(0).getByRole("button", { name: "Start again" })).toBeVisible();
    await expect(inView.nth(1).getByRole("link", { name: "Review" })).toBeVisible();
    const share = side.getByText("Share", { exact: true });
    await expect(share).toBeHidden();
    await expectAccessible(page);

    const summary = more.locator("> summary");
    await summary.focus();
    await page.keyboard.press("Enter");
    await expect(more).toHaveAttribute("open", "");
    await expect(share).toBeVisible();
    if (jsEnabled) {
      // Escape closes it and leaves the focus on its button.
      await page.waitForFunction(() => "__reactRouterRouteModules" in window);
      await share.focus();
      await page.keyboard.press("Escape");
      await expect(more).not.toHaveAttribute("open");
      await expect(summary).toBeFocused();
    }
  });

  test("a link that cannot be copied is a critical toast, gone after 7 s", async ({ page, learner, jsEnabled }) => {
    await page.addInitScript(() => {
      Object.defineProperty(navigator, "clipboard", {
        value: { writeText: () => Promise.reject(new Error("denied")) },
      });
    });
    await page.clock.install();
    await login(page, learner, "/learn/courses");
    const href = await page
      .locator(".card-grid > li.course-card")
      .filter({ has: page.getByRole("heading", { name: "SQL Fundamentals", exact: true }) })
      .getByRole("link")
      .first()
      .getAttribute("href");
    await page.goto(`/learn/courses/${new RegExp(`/learn/courses/(${UUID})`).exec(href ?? "")![1]}`);
    // Past the two actions of spec 9, Share is under "More actions".
    await page.getByText("More actions", { exact: true }).click();
    await page.getByText("Share", { exact: true }).click();
    if (!jsEnabled) {
      // Without JavaScript the link is there to copy by hand: no button that could fail.
      await expect(page.getByRole("textbox", { name: /link/i })).toBeVisible();
      await expect(page.getByRole("button", { name: "Copy link" })).toHaveCount(0);
      return;
    }
    await page.waitForFunction(() => "__reactRouterRouteModules" in window);
    await page.getByRole("button", { name: "Copy link" }).click();
    const toast = page.getByRole("region", { name: "Notifications" }).getByRole("alert");
    await expect(toast).toHaveText(/The link could not be copied/);
    await page.clock.fastForward(7_000);
    await expect(toast).toHaveCount(0);
  });
});

test.describe("spec 8: 'Module not found'", () => {
  // A browser without the offline worker (decision 044): once the worker controls the page it fetches the
  // widget's code itself, past `page.route`, and the missing file this test stands for would still load.
  test.use({ learnerRecipe: { like: "ada" }, serviceWorkers: "block" });

  test("a widget whose code cannot be loaded says 'Module not found'; the page keeps working", async ({
    page,
    learner,
    jsEnabled,
  }) => {
    await login(page, learner, "/learn/courses?keyword=python");
    const href = await page
      .locator(".card-grid > li.course-card")
      .filter({ has: page.getByRole("heading", { name: "Python for Data Analysis", exact: true }) })
      .getByRole("link")
      .first()
      .getAttribute("href");
    const id = new RegExp(`/learn/courses/(${UUID})`).exec(href ?? "")![1];
    // The discussion widget's code is gone (e.g. a new deployment replaced it).
    await page.route(/\/assets\/discussion-[\w-]+\.js/, (route) => route.fulfill({ status: 404, body: "" }));
    await page.goto(`/learn/courses/${id}/view/content`);
    const link = page
      .getByRole("navigation", { name: "Table of contents" })
      .getByRole("link")
      .filter({ hasText: "Discussion: share your first chart" });
    if (!jsEnabled) {
      // Without JavaScript the server renders the widget whole: no code to load in the browser.
      await link.click();
      await expect(page.getByRole("region", { name: "Discussion", exact: true })).toBeVisible();
      return;
    }
    await page.waitForFunction(() => {
      const el = document.querySelector("details.toc-panel");
      return !!el && Object.keys(el).some((k) => k.startsWith("__reactProps"));
    });
    await link.click();
    await expect(page.getByRole("heading", { level: 1, name: "Discussion: share your first chart" })).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: "Module not found" })).toBeVisible();
    // The rest of the page still works: another activity opens.
    await page.getByRole("navigation", { name: "Table of contents" }).getByRole("link").first().click();
    await expect(page.getByRole("alert").filter({ hasText: "Module not found" })).toHaveCount(0);
  });
});
