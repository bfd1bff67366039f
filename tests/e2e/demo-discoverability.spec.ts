import { test, expect, login, expectAccessible, type Learner } from "./fixtures";
import type { Locator, Page } from "@playwright/test";

/**
 * Issue 26, "discoverability in the demo": signed in as a learner like ada (her recipe,
 * demo/data/learners/ada.json), every capability the demo shows is at most two clicks from the
 * landing page (the dashboard): a course with announcements and a chat with messages in it, a SCORM
 * course she has started (it resumes where she left it), the AI tutor, a team activity, a certificate
 * and a reinforcement question waiting for her answer. Each test counts its clicks from /learn.
 */
test.use({ learnerRecipe: { like: "ada" } });

const PYTHON = "Python for Data Analysis";

/**
 * Signs in and lands on the dashboard, where every count starts; `click` counts what the test presses.
 * With JavaScript it presses a link once React has hydrated it, as a person reading the page would: a
 * click in the first instants after a page load can be lost to the router taking over the history.
 */
async function fromDashboard(page: Page, learner: Learner) {
  await login(page, learner);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  const jsEnabled = test.info().project.use.javaScriptEnabled !== false;
  let clicks = 0;
  return {
    click: async (target: Locator) => {
      clicks++;
      if (jsEnabled)
        await expect
          .poll(() => target.evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactProps"))))
          .toBe(true);
      await target.click();
    },
    clicks: () => clicks,
  };
}

const section = (page: Page, name: string) => page.getByRole("region", { name: new RegExp(`^${name}`) });

test(
  "the course chat with its messages is one click away (the header's unread badge), its announcements two",
  { tag: "@js-only" },
  async ({ page, learner }) => {
    const d = await fromDashboard(page, learner);
    // Every page's header counts the unread messages of her courses and leads to the newest one's channel.
    await d.click(page.getByRole("link", { name: /^Unread messages: \d+$/ }));
    await expect(page).toHaveURL(/\/learn\/courses\/[0-9a-f-]{36}\/view\/notifications\?channel=chat$/);
    await expect(page.getByRole("heading", { level: 2, name: "Course chat" })).toBeVisible();
    const messages = page.locator(".chat__message");
    await expect(messages.filter({ hasText: "Katherine Johnson" }).first()).toContainText(
      "read the started_at column as dates",
    );
    await expect(messages.filter({ hasText: "Grace Hopper" }).first()).toContainText("parse_dates");
    await expectAccessible(page);

    await d.click(page.getByRole("link", { name: /^Announcements/ }));
    await expect(page.getByRole("heading", { level: 2, name: "Announcements" })).toBeVisible();
    await expect(page.getByText("The team assignment in Module 6 is open")).toBeVisible();
    expect(d.clicks()).toBeLessThanOrEqual(2);
  },
);

test(
  "the course's Notifications are two clicks away through Continue learning",
  { tag: "@js-only" },
  async ({ page, learner }) => {
    const d = await fromDashboard(page, learner);
    await d.click(section(page, "Continue learning").getByRole("link", { name: PYTHON }));
    await expect(page).toHaveURL(/\/view\/content\?activityPathId=/);
    await d.click(
      page.getByRole("navigation", { name: "Course sections" }).getByRole("link", { name: "Notifications" }),
    );
    await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
    await expect(page.getByText("Welcome to Python for Data Analysis! Work through the modules")).toBeVisible();
    expect(d.clicks()).toBe(2);
  },
);

test("the SCORM course she started is one click away and resumes where she left it", async ({
  page,
  learner,
  jsEnabled,
}) => {
  const d = await fromDashboard(page, learner);
  const card = section(page, "Continue learning").getByRole("listitem").filter({ hasText: "Anti-Bribery" });
  await expect(card).toContainText("40% done");
  const saved = jsEnabled
    ? page.waitForResponse((r) => r.url().includes("/learn/scorm-runtime/") && r.ok())
    : Promise.resolve(null);
  await d.click(card.getByRole("link", { name: "Anti-Bribery and Corruption" }));
  await expect(page).toHaveURL(/\/view\/content\?activityPathId=/);
  if (!jsEnabled) {
    // A package needs JavaScript to run: the page says so (and keeps the rest of the course open).
    await expect(page.getByText(/runs only with JavaScript/)).toBeVisible();
    return;
  }
  await saved;
  // The two answers she gave before are there again (the package read its suspend data).
  // The launcher's frame on the content origin, and the SCO's inside it (decision 040).
  const quiz = page.frameLocator('iframe[title="Gifts and hospitality quiz"]').frameLocator("iframe#sco");
  await expect(quiz.getByLabel("Decline it and tell your manager")).toBeChecked();
  await expect(quiz.getByLabel("Yes, it is modest hospitality")).toBeChecked();
  await expect(quiz.getByLabel("A facilitation payment, which is forbidden")).not.toBeChecked();
  expect(d.clicks()).toBe(1);
});

test(
  "the AI tutor is one click away, open on the course she continues",
  { tag: "@js-only" },
  async ({ page, learner }) => {
    const d = await fromDashboard(page, learner);
    await d.click(section(page, "Continue learning").getByRole("link", { name: PYTHON }));
    const widget = page.getByRole("region", { name: "AI tutor" });
    await expect(widget.locator("details")).toHaveAttribute("open", "");
    await expect(widget.getByLabel("Your question")).toBeVisible();
    await expect(widget.getByRole("link", { name: "Open the tutor on its own page" })).toBeVisible();
    expect(d.clicks()).toBe(1);
  },
);

test(
  "the team activity is two clicks away: the course, then its entry in the table of contents",
  { tag: "@js-only" },
  async ({ page, learner }) => {
    const d = await fromDashboard(page, learner);
    await d.click(section(page, "Continue learning").getByRole("link", { name: PYTHON }));
    await expect(page).toHaveURL(/\/view\/content\?activityPathId=/);
    await d.click(
      page
        .getByRole("navigation", { name: "Table of contents" })
        .getByRole("link", { name: /Team assignment: review a chart together/ }),
    );
    await expect(
      page.getByRole("heading", { level: 1, name: "Team assignment: review a chart together" }),
    ).toBeVisible();
    await expect(page.getByRole("region", { name: /^Team: Team Pandas$/ })).toContainText(
      "You work on this activity with Team Pandas",
    );
    expect(d.clicks()).toBe(2);
  },
);

test(
  "a certificate is two clicks away: its number on the dashboard, then its preview",
  { tag: "@js-only" },
  async ({ page, learner }) => {
    const d = await fromDashboard(page, learner);
    const link = section(page, "Recent results and certificates").getByRole("link", {
      name: /^Certificate LA(-[0-9A-Z]{4}){4}/,
    });
    const number = /LA(-[0-9A-Z]{4}){4}/.exec((await link.textContent()) ?? "")![0];
    await d.click(link);
    await expect(page).toHaveURL(/\/learn\/courses\/[0-9a-f-]{36}#certificates-title$/);
    await d.click(page.getByRole("region", { name: "Certificates" }).getByRole("link", { name: number }));
    await expect(page).toHaveURL(new RegExp(`/certificate/${number}$`));
    await expect(page.getByRole("heading", { level: 1, name: "SQL Fundamentals Certificate" })).toBeVisible();
    expect(d.clicks()).toBe(2);
  },
);

test("a reinforcement question waiting for her is on the dashboard: answered in two clicks", async ({
  page,
  learner,
}) => {
  const d = await fromDashboard(page, learner);
  const questions = section(page, "Questions to answer");
  const item = questions.getByRole("listitem").filter({ hasText: "What is the type of the value 3 / 2" });
  await expect(item).toContainText("Question due: Variables, types and expressions");
  await expectAccessible(page);
  // The options are the e-mail's answer links: one opens the question with the option chosen, one button sends it.
  await d.click(item.getByRole("list", { name: "Choose your answer" }).getByRole("link", { name: "float" }));
  await expect(page.getByRole("radio", { name: "float" })).toBeChecked();
  await d.click(page.getByRole("button", { name: "Send my answer" }));
  await expect(page.getByText("That's correct!")).toBeVisible();
  expect(d.clicks()).toBe(2);

  // Answered, it leaves the dashboard's list (the others still wait).
  await page.goto("/learn");
  await expect(questions.getByRole("listitem").filter({ hasText: "What is the type of the value 3 / 2" })).toHaveCount(
    0,
  );
  await expect(questions.getByRole("heading", { level: 2 })).toHaveText("Questions to answer (3)");
});
