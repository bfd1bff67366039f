import { test, expect, login, expectAccessible, type Learner } from "./fixtures";
import type { FrameLocator, Page } from "@playwright/test";

/**
 * The demo's SCORM packages run, save, resume exactly and finish; commits queue while the
 * connection is down; without JavaScript the page says the package cannot run. Each test has a learner
 * of its own (decision 014) with the course started.
 */
const started = (course: string) => ({
  enrolments: [
    { course, assigned: { mandatory: true }, attempts: [{ state: "inProgress", progress: 0, startedAgo: 0 }] },
  ],
});

async function openCourse(page: Page, learner: Learner, name: string) {
  await login(page, learner, "/learn/courses");
  await page.getByRole("link", { name }).first().click();
  await expect(page).toHaveURL(/\/view\/content/);
}

/**
 * The running SCO: the player's frame (named by the SCO's title) holds the launcher on the content
 * origin, whose own frame holds the SCO (decision 040).
 */
const sco = (page: Page, title: string) => page.frameLocator(`iframe[title="${title}"]`).frameLocator("iframe#sco");

/** The player's first commit reaching the server (the SCO has initialised). */
const firstCommit = (page: Page) => page.waitForResponse((r) => r.url().includes("/learn/scorm-runtime/") && r.ok());

/**
 * Without JavaScript a package cannot run: the page says so plainly, shows no frame, and leaves the
 * rest of the course open. Each run test checks it for its own package in the no-JavaScript project.
 */
async function expectNeedsJavaScript(page: Page) {
  await expect(page.getByText(/runs only with JavaScript/)).toBeVisible();
  await expect(page.locator("iframe")).toHaveCount(0);
  await expect(page.getByRole("link", { name: /courses/i }).first()).toBeVisible();
}

/** Starts the activity unless the attempt's seeding already did. */
async function startActivity(page: Page) {
  const start = page.getByRole("button", { name: "Start", exact: true });
  if (await start.count()) await start.click();
}

/**
 * Opens the 1.2 quiz. With JavaScript: the running SCO's frame, once it has initialised (its first
 * commit — from then on its answers are listened to). Without: null, after checking the page says the
 * package needs JavaScript.
 */
async function openQuiz(page: Page, learner: Learner, jsEnabled: boolean) {
  const initialised = jsEnabled ? firstCommit(page) : null;
  await openCourse(page, learner, "Anti-Bribery and Corruption");
  await startActivity(page);
  if (!initialised) {
    await expectNeedsJavaScript(page);
    return null;
  }
  await initialised;
  return sco(page, "Gifts and hospitality quiz");
}

/** Takes the browser offline, answers in the quiz, and checks the learner is told the answers wait. */
async function answerOffline(page: Page, quiz: FrameLocator, answers: string[]) {
  await page.context().setOffline(true);
  for (const answer of answers) await quiz.getByLabel(answer).check();
  await expect(page.getByRole("status").filter({ hasText: "No connection" })).toBeVisible();
}

test.describe("SCORM 1.2 quiz", () => {
  test.use({ learnerRecipe: started("anti-bribery") as never });

  test("runs, saves each answer, resumes exactly after a reload, and finishes with its score", async ({
    page,
    learner,
    jsEnabled,
  }) => {
    const quiz = await openQuiz(page, learner, jsEnabled);
    if (!quiz) return;
    await quiz.getByLabel("Decline it and tell your manager").check();
    await quiz.getByLabel("Yes, it is modest hospitality").check();
    await expect(page.getByRole("status").filter({ hasText: "Your progress is saved." })).toBeVisible();
    await expectAccessible(page);

    await page.reload();
    const again = sco(page, "Gifts and hospitality quiz");
    await expect(again.getByLabel("Decline it and tell your manager")).toBeChecked();
    await expect(again.getByLabel("Yes, it is modest hospitality")).toBeChecked();
    await again.getByLabel("A facilitation payment, which is forbidden").check();
    await again.getByLabel("The gifts register").check();
    await again.getByRole("button", { name: "Submit my answers" }).click();
    await expect(again.getByRole("status")).toHaveText("Your score: 80 out of 100. Passed.");
    await expect(page.getByText("You have finished this package.")).toHaveCount(1);
  });

  test("keeps commits while offline and sends them in order when the connection returns", async ({
    page,
    context,
    learner,
    jsEnabled,
  }) => {
    // Without JavaScript there is nothing to queue: the package does not run.
    const quiz = await openQuiz(page, learner, jsEnabled);
    if (!quiz) return;
    await answerOffline(page, quiz, ["Decline it and tell your manager", "Yes, it is modest hospitality"]);
    await context.setOffline(false);
    await expect(page.getByRole("status").filter({ hasText: "Your progress is saved." })).toBeVisible();
    await page.reload();
    const again = sco(page, "Gifts and hospitality quiz");
    await expect(again.getByLabel("Decline it and tell your manager")).toBeChecked();
    await expect(again.getByLabel("Yes, it is modest hospitality")).toBeChecked();
  });

  test("a page closed while offline loses nothing: the next visit sends what it kept and resumes from it", async ({
    page,
    context,
    learner,
    jsEnabled,
  }) => {
    const quiz = await openQuiz(page, learner, jsEnabled);
    if (!quiz) return;
    await answerOffline(page, quiz, ["Decline it and tell your manager"]);
    const url = page.url();
    await page.close({ runBeforeUnload: false });
    await context.setOffline(false);

    // The next visit: the kept commit is sent first, and the SCO resumes from it.
    const next = await context.newPage();
    const sent = firstCommit(next);
    await next.goto(url);
    await sent;
    const again = sco(next, "Gifts and hospitality quiz");
    await expect(again.getByLabel("Decline it and tell your manager")).toBeChecked();
    await expect(next.getByRole("status").filter({ hasText: "Your progress is saved." })).toBeVisible();
    // And the server has it: with the browser's storage cleared, the answer still comes back.
    await next.evaluate(() => localStorage.clear());
    await next.reload();
    await expect(sco(next, "Gifts and hospitality quiz").getByLabel("Decline it and tell your manager")).toBeChecked();
  });
});

test.describe("SCORM 2004 lesson", () => {
  test.use({ learnerRecipe: started("info-security") as never });

  test("resumes at the bookmarked page, continues to the check by navigation request, and scores", async ({
    page,
    learner,
    jsEnabled,
  }) => {
    await openCourse(page, learner, "Information Security Awareness 2026");
    await startActivity(page);
    if (!jsEnabled) return expectNeedsJavaScript(page);
    const toc = page.getByRole("navigation", { name: "Parts of this package" });
    await expect(toc.getByRole("button", { name: "How phishing works" })).toHaveAttribute("aria-current", "step");
    const read = sco(page, "How phishing works");
    await read.getByRole("button", { name: "Next page" }).click();
    await expect(read.getByRole("heading", { name: "Page 2 of 3: the signs" })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Your progress is saved." })).toBeVisible();

    await page.reload();
    const back = sco(page, "How phishing works");
    await expect(back.getByRole("heading", { name: "Page 2 of 3: the signs" })).toBeVisible();
    await back.getByRole("button", { name: "Next page" }).click();
    await back.getByRole("button", { name: "Continue to the check" }).click();
    // adl.nav.request "continue" launched the next SCO.
    const check = sco(page, "Check your knowledge");
    await check.getByLabel("Probably phishing").check();
    await check.getByLabel('Report it with "Report phishing"').check();
    await check.getByRole("button", { name: "Submit" }).click();
    await expect(check.getByRole("status")).toHaveText("Your score: 100 out of 100.");
    await expect(page.getByText("You have finished this package.")).toHaveCount(1);
    await expectAccessible(page);
  });
});

test.describe("SCORM without JavaScript", () => {
  test.use({ learnerRecipe: started("anti-bribery") as never });

  test("says plainly that the package needs JavaScript and leaves the rest of the course open", async ({
    page,
    learner,
    jsEnabled,
  }) => {
    await openCourse(page, learner, "Anti-Bribery and Corruption");
    await startActivity(page);
    if (jsEnabled) {
      // With JavaScript the package runs in its frame, and the message is not shown.
      await expect(page.locator('iframe[title="Gifts and hospitality quiz"]')).toBeVisible();
      await expect(page.getByText(/runs only with JavaScript/)).toHaveCount(0);
      return;
    }
    await expectNeedsJavaScript(page);
    await expectAccessible(page);
  });
});
