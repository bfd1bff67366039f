import type { Page } from "@playwright/test";
import { test, expect, login, type Learner } from "./fixtures";

/**
 * Decision 048: an assignment handed in as a learner (text and files, a refused file, the confirmation),
 * graded and released as an instructor, and the grade and comment read back — with JavaScript on and off
 * (every step is a plain form). The API's refusals are proven in tests/integration/hand-ins-api.test.ts.
 */
const COURSE = "Testing Strategies: Unit, Integration and End-to-End";
const ASSIGNMENT = "Final assignment: a test plan";
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
const EXE = Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]);

/** Signs the learner in and opens the assignment's hand-in page from her course's table of contents. */
async function openAssignment(page: Page, learner: Learner) {
  await login(page, learner, "/learn/courses");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.goto("/learn/courses?keyword=testing");
  const href = await page
    .locator(".card-grid > li.course-card")
    .filter({ has: page.getByRole("heading", { name: COURSE, exact: true }) })
    .getByRole("link")
    .first()
    .getAttribute("href");
  const id = /\/learn\/courses\/([0-9a-f-]{36})/.exec(href ?? "")?.[1];
  await page.goto(`/learn/courses/${id}/view/content`);
  await page.getByRole("navigation", { name: "Table of contents" }).getByRole("link", { name: ASSIGNMENT }).click();
  await page.getByRole("link", { name: "Hand in your work" }).click();
  await expect(page.getByRole("heading", { level: 1, name: ASSIGNMENT })).toBeVisible();
}

test("hand in as a learner, grade as an instructor, read the feedback", async ({
  page,
  newLearner,
  browser,
  jsEnabled,
}) => {
  test.setTimeout(120_000);
  // A name of its own: the queue is the tenant's, and the other project runs this test too.
  const learner = await newLearner({
    firstName: `Hanna${Math.random().toString(36).slice(2, 8)}`,
    lastName: "Tester",
    enrolments: [
      {
        course: "testing-strategies",
        selfEnrolled: true,
        attempts: [{ state: "inProgress", progress: 0, startedAgo: 2 }],
      },
    ],
  });
  await openAssignment(page, learner);

  // With JavaScript (decision 058): a file of a refused kind is named and left out before anything is sent.
  if (jsEnabled) {
    await page
      .getByLabel("Add files")
      .setInputFiles([{ name: "notes.exe", mimeType: "application/octet-stream", buffer: EXE }]);
    await expect(
      page.getByText(/notes\.exe was refused: We support attaching only these types of files/),
    ).toBeVisible();
    expect(await page.getByLabel("Add files").evaluate((el) => (el as HTMLInputElement).files?.length)).toBe(0);
  }

  // A file that is not what its name says is refused; the text stays as typed.
  await page.getByLabel("Your answer").fill("Unit tests for the pricing rules.\n\nOne browser test for checkout.");
  await page.getByLabel("Add files").setInputFiles([{ name: "plan.pdf", mimeType: "application/pdf", buffer: EXE }]);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText(/We support attaching only these types of files/)).toBeVisible();
  await expect(page.getByLabel("Your answer")).toHaveValue(/One browser test for checkout/);

  await page.getByLabel("Add files").setInputFiles([{ name: "plan.pdf", mimeType: "application/pdf", buffer: PDF }]);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Your draft is saved.")).toBeVisible();
  await expect(page.getByRole("link", { name: "plan.pdf" })).toBeVisible();

  // Hand in: the confirmation names what goes.
  await page.getByRole("button", { name: "Hand in…" }).click();
  const confirm = page.getByRole("region", { name: "Hand in this work?" });
  await expect(confirm.getByText("File: plan.pdf")).toBeVisible();
  await confirm.getByRole("button", { name: "Hand in now" }).click();
  await expect(page.getByText("Your work is handed in.")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /Submitted on/ })).toContainText("Awaiting grading");
  const handInUrl = page.url();

  // The instructor (a copy of grace: the Instructor role) grades it from the queue.
  const grader = await newLearner({ like: "grace" });
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled });
  const other = await context.newPage();
  await login(other, grader, "/learn/grading");
  await expect(other.getByRole("heading", { level: 1, name: "Grading" })).toBeVisible();
  await other
    .getByRole("link", { name: `${ASSIGNMENT} by ${learner.name}` })
    .first()
    .click();
  await expect(other.getByText("One browser test for checkout.")).toBeVisible();
  await other.getByLabel("Score (0 to 100)").fill("87");
  await other.getByLabel("Comment to the learner").fill("A sound plan. Add a contract test for the payment API.");
  await other.getByRole("button", { name: "Release" }).click();
  await expect(other.getByText("The grade is released to the learner.")).toBeVisible();
  await context.close();

  // The learner reads it.
  await page.goto(handInUrl);
  const feedback = page.getByRole("region", { name: "Grade and feedback" });
  await expect(feedback.getByText("Score: 87 of 100")).toBeVisible();
  await expect(feedback.getByText("Add a contract test for the payment API.")).toBeVisible();
});

test(
  "with JavaScript each file shows its progress while it is sent",
  { tag: "@js-only" },
  async ({ page, newLearner }) => {
    const learner = await newLearner({
      enrolments: [
        {
          course: "testing-strategies",
          selfEnrolled: true,
          attempts: [{ state: "inProgress", progress: 0, startedAgo: 2 }],
        },
      ],
    });
    await openAssignment(page, learner);

    // A slow uplink (Chromium's network emulation): 2 MB take a few seconds.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 512 * 1024,
    });
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST") posts.push(new URL(r.url()).pathname);
    });
    const big = Buffer.concat([PDF, Buffer.alloc(2 * 1024 * 1024, 0x20)]);
    await page
      .getByLabel("Add files")
      .setInputFiles([{ name: "dataset.pdf", mimeType: "application/pdf", buffer: big }]);
    await page.getByRole("button", { name: "Save draft" }).click();
    const bar = page.getByRole("progressbar", { name: "Sending dataset.pdf" });
    await expect(bar).toBeVisible();
    // Part of the way, then saved: the page's own toast, the file listed.
    await expect.poll(async () => Number(await bar.getAttribute("value")), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect(page.getByText("Your draft is saved.")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("link", { name: "dataset.pdf" })).toBeVisible();
    await expect(bar).toHaveCount(0);
    // Sent once, by the page's upload (the router's post of the form was not needed).
    expect(posts.filter((p) => p.includes("/hand-in/"))).toEqual([expect.stringMatching(/\/upload$/)]);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  },
);
