import type { Browser, Locator, Page } from "@playwright/test";
import { test, expect, login, expectAccessible, type Learner } from "./fixtures";

/**
 * Team and mini-group activities (issue 15 items 7–9, spec 1, 3, 7.3; decision 026): two learners of
 * one team, each in a browser context of their own, work on one shared answer in Python for Data
 * Analysis ("Team assignment: review a chart together", the team "Team Pandas"). Plain forms, so the
 * same test runs with JavaScript on and off.
 */
test.use({ learnerRecipe: { like: "ada", firstName: "Ada", lastName: "Teamlead" } });

const TEAM_TASK = "Team assignment: review a chart together";
const PAIR_TASK = "Pair exercise: explain a join";
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

async function pythonContent(page: Page): Promise<string> {
  await page.goto("/learn/courses?keyword=python");
  const card = page
    .locator(".card-grid > li.course-card")
    .filter({ has: page.getByRole("heading", { name: "Python for Data Analysis", exact: true }) });
  const href = (await card.getByRole("link").first().getAttribute("href")) ?? "";
  const id = new RegExp(`/learn/courses/(${UUID})`).exec(href)?.[1];
  expect(id).toBeTruthy();
  return `/learn/courses/${id}/view/content`;
}

async function open(page: Page, content: string, name: string) {
  await page.goto(content);
  const link = page
    .getByRole("navigation", { name: "Table of contents" })
    .getByRole("listitem")
    .filter({ has: page.locator(".toc__name").getByText(name, { exact: true }) })
    .getByRole("link");
  await page.goto((await link.getAttribute("href"))!);
  await expect(page.getByRole("heading", { level: 1, name, exact: true })).toBeVisible();
}

async function signedIn(browser: Browser, who: Learner, jsEnabled: boolean): Promise<Page> {
  const ctx = await browser.newContext({ javaScriptEnabled: jsEnabled });
  const page = await ctx.newPage();
  await login(page, who);
  await expect(page.locator("details.user-menu")).toBeVisible();
  return page;
}

const panel = (page: Page) => page.getByRole("region", { name: /^Team: Team Pandas$/ });

/**
 * With JavaScript, "Start activity" may have gone as a plain form post (the click came before the page
 * hydrated): the box then comes in the server's new page. Text typed before that page hydrates is kept
 * (`useTypedBeforeHydration`, the last test), but typing while React takes the box over can interleave
 * with it, so the tests that are about the group's versions type once the box is React's.
 */
async function hydrated(box: Locator, jsEnabled: boolean) {
  if (!jsEnabled) return;
  await expect.poll(() => box.evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactProps")))).toBe(true);
}

test("two members of a team write one answer, a stale save is kept and shown, one submission counts for both", async ({
  page,
  browser,
  learner,
  newLearner,
  jsEnabled,
}) => {
  const mate = await newLearner({ like: "ada", firstName: "Grace", lastName: "Teammate", joinGroupsOf: learner.id });
  await login(page, learner);
  await expect(page.locator("details.user-menu")).toBeVisible();
  const content = await pythonContent(page);
  const other = await signedIn(browser, mate, jsEnabled);

  // Ada starts the team's work: the panel says who she works with.
  await open(page, content, TEAM_TASK);
  await expect(panel(page)).toContainText("You work on this activity with Team Pandas");
  await panel(page).getByRole("button", { name: "Start activity" }).click();
  const answer = panel(page).getByLabel("Your group's answer");
  await hydrated(answer, jsEnabled);
  await answer.fill("The chart answers: when do people ride?");
  await panel(page).getByRole("button", { name: "Save for the group" }).click();
  await expect(page.getByText("Your group's answer is saved.")).toBeVisible();
  await expect(panel(page)).toContainText("Last saved by Ada Teamlead");
  await expectAccessible(page);

  // Grace joins and sees Ada's text and contribution; she continues it.
  await open(other, content, TEAM_TASK);
  await panel(other).getByRole("button", { name: "Start activity" }).click();
  await expect(panel(other).getByLabel("Your group's answer")).toHaveValue("The chart answers: when do people ride?");
  const adaRow = panel(other).getByRole("row").filter({ hasText: "Ada Teamlead" });
  await expect(adaRow.getByRole("cell").first()).toHaveText("1");
  await expect(adaRow).toContainText("Saved");
  await hydrated(panel(other).getByLabel("Your group's answer"), jsEnabled);
  await panel(other)
    .getByLabel("Your group's answer")
    .fill("The chart answers: when do people ride? Peaks at 8 and 17.");
  await panel(other).getByRole("button", { name: "Save for the group" }).click();
  await expect(other.getByText("Your group's answer is saved.")).toBeVisible();

  // Ada's page still holds version 1: her save is refused, her text kept, Grace's shown.
  await answer.fill("Ada's own rewrite");
  await panel(page).getByRole("button", { name: "Save for the group" }).click();
  const conflict = panel(page).getByRole("alert");
  await expect(conflict).toContainText("A teammate saved a newer version");
  await expect(conflict).toContainText("Peaks at 8 and 17.");
  await expect(panel(page).getByLabel("Your group's answer")).toHaveValue("Ada's own rewrite");

  // Grace submits for the team; both see the one submission.
  await panel(other).getByRole("button", { name: "Submit for the group" }).click();
  await expect(panel(other)).toContainText("Submitted for the group by Grace Teammate");
  await expect(panel(other)).toContainText("Waiting for grading");
  await open(page, content, TEAM_TASK);
  await expect(panel(page)).toContainText("Submitted for the group by Grace Teammate");
  await expect(panel(page).getByLabel("Your group's answer")).toHaveCount(0);
  await expect(panel(page)).toContainText("Peaks at 8 and 17.");
  const graceRow = panel(page).getByRole("row").filter({ hasText: "Grace Teammate" });
  await expect(graceRow).toContainText("Submitted");
  await expect(panel(page).getByRole("row").filter({ hasText: "Ada Teamlead (you)" })).toHaveCount(1);
  await expectAccessible(page);

  // The members list is searchable.
  await panel(page).getByRole("searchbox", { name: "Search members" }).fill("teammate");
  await panel(page).getByRole("button", { name: "Search" }).click();
  await expect(panel(page).getByRole("row")).toHaveCount(2); // the header and Grace
  await other.context().close();
});

test("an activity taken either way: the learner chooses, and working alone is a personal activity", async ({
  page,
  learner,
}) => {
  await login(page, learner);
  await expect(page.locator("details.user-menu")).toBeVisible();
  const content = await pythonContent(page);
  await open(page, content, PAIR_TASK);
  const region = page.getByRole("region", { name: /^Mini-group: / });
  await expect(region.getByRole("group", { name: "How do you want to work on this activity?" })).toBeVisible();
  await expect(region.getByRole("radio", { name: "On my own" })).toBeChecked();
  await region.getByRole("button", { name: "Start activity" }).click();
  await expect(region).toContainText("You chose to work on this activity on your own.");
  await page.getByRole("button", { name: "Mark as done" }).click();
  await expect(page.getByRole("button", { name: "Mark as done" })).toHaveCount(0);
});

test.describe("a slow phone", () => {
  // Scripts come from the network here, not the offline worker's cache, so the test can hold them back.
  test.use({ serviceWorkers: "block" });

  test(
    "what a member types into the group's answer before the page's script has run is still there when it has",
    { tag: "@js-only" },
    async ({ page, learner }) => {
      // About the moment the page's script takes over: JavaScript only.
      await login(page, learner);
      const content = await pythonContent(page);
      await open(page, content, TEAM_TASK);
      await panel(page).getByRole("button", { name: "Start activity" }).click();
      const box = panel(page).getByLabel("Your group's answer");
      await hydrated(box, true);
      // A box with text in it (React puts an empty one's value back only when it is not empty).
      await box.fill("First words");
      await panel(page).getByRole("button", { name: "Save for the group" }).click();
      await expect(page.getByText("Your group's answer is saved.")).toBeVisible();

      // The page again, its scripts held back (a slow phone): the member types into the server's page.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let heldScripts = 0;
      await page.route(/\/learn\/assets\/.+\.js$/, async (route) => {
        heldScripts++;
        await held;
        await route.continue();
      });
      await page.reload({ waitUntil: "commit" });
      await expect(box).toHaveValue("First words");
      await box.fill("First words, then typed on a slow phone");
      expect(heldScripts).toBeGreaterThan(0);
      release();
      await hydrated(box, true);
      await expect(box).toHaveValue("First words, then typed on a slow phone");
      await panel(page).getByRole("button", { name: "Save for the group" }).click();
      await expect(page.getByText("Your group's answer is saved.")).toBeVisible();
      await page.reload();
      await expect(box).toHaveValue("First words, then typed on a slow phone");
    },
  );
});
