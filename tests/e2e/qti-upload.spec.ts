import { readFileSync, rmSync } from "node:fs";
import { test, expect, openSignedIn, expectAccessible } from "./fixtures";
import { zipFolder } from "../../api/scorm/zip-folder";

/**
 * Decision 068: a QTI test with an upload (tests/fixtures/qti-upload): the learner sends a file with the
 * page's plain form — JavaScript on and off —, sees it on resume, replaces it (one file kept), a refused
 * file keeps her other answer, she submits and the test waits for a person; a grader opens the file from
 * the grading page and scores it. The API's rules (limits, scope, 404 to others) are proven in
 * tests/integration/assessment-uploads.test.ts.
 */
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

test("a learner sends a file as her answer, replaces it, submits; the grader opens it and scores it", async ({
  page,
  request,
  newLearner,
  browser,
  jsEnabled,
}) => {
  test.setTimeout(120_000);
  const learner = await newLearner({ firstName: `Upl${Math.random().toString(36).slice(2, 8)}`, lastName: "Sender" });
  const zip = zipFolder("tests/fixtures/qti-upload");
  const body = readFileSync(zip);
  rmSync(zip);
  const name = `Network plan ${jsEnabled ? "js" : "nojs"}`;
  const made = await request.post(
    `/api/test-support/v1/qti-courses?learner=${learner.id}&name=${encodeURIComponent(name)}`,
    { data: body, headers: { "Content-Type": "application/zip" } },
  );
  expect(made.status(), await made.text()).toBe(201);
  const { courseId } = (await made.json()) as { courseId: string };
  await openSignedIn(page, learner, `/learn/courses/${courseId}/view/content`);
  await page.getByRole("button", { name: "Start activity" }).click();
  await page.getByRole("link", { name: "Open the test" }).click();
  await page.getByRole("button", { name: "Start", exact: true }).click();

  const plan = page.getByRole("group", { name: /Send the plan of your office network/ });
  await page.getByRole("radio", { name: "Between the router and the office switch" }).check();
  await plan
    .getByLabel("Choose a file to send")
    .setInputFiles({ name: "plan.pdf", mimeType: "application/pdf", buffer: PDF });
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Your answers are saved.")).toBeVisible();
  await expect(plan.getByRole("link", { name: "plan.pdf" })).toBeVisible();
  await expectAccessible(page);

  // A type the question does not take: said, and the other answer is kept.
  await plan
    .getByLabel("Choose another file to replace it")
    .setInputFiles({ name: "plan.txt", mimeType: "text/plain", buffer: Buffer.from("a plan in words") });
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("We support attaching only these types of files: pdf, png")).toBeVisible();
  await expect(page.getByRole("radio", { name: "Between the router and the office switch" })).toBeChecked();
  await expect(plan.getByRole("link", { name: "plan.pdf" })).toBeVisible();

  // A new file replaces the one sent: one file.
  await plan
    .getByLabel("Choose another file to replace it")
    .setInputFiles({ name: "plan.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Your answers are saved.")).toBeVisible();
  await expect(plan.getByRole("link", { name: "plan.png" })).toBeVisible();
  await expect(plan.getByRole("link", { name: "plan.pdf" })).toHaveCount(0);
  const href = await plan.getByRole("link", { name: "plan.png" }).getAttribute("href");
  const own = await page.context().request.get(href!);
  expect(own.status()).toBe(200);
  expect(Buffer.from(await own.body())).toEqual(PNG);

  await page.getByRole("button", { name: "Save and finish" }).click();
  await page.getByRole("button", { name: "Submit my answers" }).click();
  await expect(page.getByText("A person grades some of your answers; your score comes once they have.")).toBeVisible();

  // Another learner of the tenant: 404.
  const stranger = await browser.newContext();
  await openSignedIn(await stranger.newPage(), await newLearner(), "/learn");
  expect((await stranger.request.get(href!)).status()).toBe(404);
  await stranger.close();

  // The grader finds it in the queue, opens the file and scores it.
  const grader = await newLearner({ like: "grace" });
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled });
  const other = await context.newPage();
  await openSignedIn(other, grader, "/learn/grading");
  const entry = other
    .getByRole("region", { name: "Tests waiting for a score" })
    .getByRole("listitem")
    .filter({ hasText: learner.name });
  await entry.getByRole("link").click();
  const question = other.getByRole("region", { name: "Question 1" });
  const file = question.getByRole("link", { name: "plan.png" });
  await expect(file).toBeVisible();
  await expectAccessible(other);
  const read = await context.request.get((await file.getAttribute("href"))!);
  expect(read.status()).toBe(200);
  expect(read.headers()["content-type"]).toMatch(/image\/png/);
  await question.getByLabel(/^Score \(0 to \d+\)$/).fill("4");
  await other.getByRole("button", { name: "Save the scores" }).click();
  await expect(other.getByText("The test is scored: the learner sees the result.")).toBeVisible();
  await context.close();
});
