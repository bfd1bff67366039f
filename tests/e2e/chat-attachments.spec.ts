import { test, expect, login, expectAccessible, expectNoReact, type Learner } from "./fixtures";
import type { Page } from "@playwright/test";
import { openHub } from "./hub";

/**
 * Chat attachments (issue 16 item 3, spec 5, spec 7.5): a learner posts files with a message in the
 * course chat — without JavaScript a multipart form post that comes back to the page with the
 * message and its links, with JavaScript the same action. Refusals read as spec 5 says; the files are
 * the course's members' only.
 */
const onboarding = { course: "onboarding", selfEnrolled: true };
test.use({ learnerRecipe: { enrolments: [onboarding] } });

const PDF = Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
// A 1×1 transparent PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const TYPES = "pdf, png, jpeg, gif, webp, txt, docx, xlsx, pptx, zip";

async function openChat(page: Page, who: Learner) {
  await openHub(page, who);
  await page.getByRole("link", { name: /Course chat/ }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Course chat" })).toBeVisible();
}

test("a learner posts a message with a PDF and an image: links with name and size, served same-origin", async ({
  page,
  learner,
  jsEnabled,
}) => {
  await openChat(page, learner);
  if (!jsEnabled) await expectNoReact(page);
  const input = page.getByLabel("Attach files");
  await expect(
    page.getByText(`Maximum number of files: 3. Maximum size of a file: 10.00 MB. Types: ${TYPES}.`),
  ).toBeVisible();
  const word = `files-${crypto.randomUUID()}`;
  await page.getByLabel("Message", { exact: true }).fill(word);
  await input.setInputFiles([
    { name: "Week 1 plan.pdf", mimeType: "application/pdf", buffer: PDF },
    { name: "pixel.png", mimeType: "image/png", buffer: PNG },
  ]);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("Message sent.")).toBeVisible();

  const mine = page.locator(".chat__message").filter({ hasText: word });
  await expect(mine).toHaveCount(1);
  const files = mine.getByRole("list", { name: "Attachments" });
  const pdfLink = files.getByRole("link", { name: `Week 1 plan.pdf (${PDF.length} B)` });
  const pngLink = files.getByRole("link", { name: `pixel.png (${PNG.length} B)` });
  await expect(pdfLink).toBeVisible();
  await expect(pngLink).toBeVisible();
  // The form is empty again: a second message does not carry the files once more.
  await expect(input).toHaveValue("");
  await expectAccessible(page);

  const pdfUrl = (await pdfLink.getAttribute("href"))!;
  expect(pdfUrl).toMatch(/^\/learn\/chat-files\/[0-9a-f-]{36}$/);
  // Spec 7.5: HEAD reads the size.
  const head = await page.request.head(pdfUrl);
  expect(head.status()).toBe(200);
  expect(head.headers()["content-length"]).toBe(String(PDF.length));
  const pdf = await page.request.get(pdfUrl);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect(pdf.headers()["content-disposition"]).toMatch(/^attachment; filename="Week 1 plan.pdf"/);
  expect(pdf.headers()["x-content-type-options"]).toBe("nosniff");
  expect(Buffer.from(await pdf.body()).equals(PDF)).toBe(true);
  // The image shows as a preview, inline.
  const png = await page.request.get((await pngLink.getAttribute("href"))!);
  expect(png.headers()["content-type"]).toBe("image/png");
  expect(png.headers()["content-disposition"]).toMatch(/^inline; /);
  await expect(pngLink.locator("img")).toHaveJSProperty("naturalWidth", 1);
});

test("refusals read as spec 5 says: the type by the contents, the size", async ({ page, learner, jsEnabled }) => {
  await openChat(page, learner);
  const word = `refused-${crypto.randomUUID()}`;
  await page.getByLabel("Message", { exact: true }).fill(word);
  // A program renamed .pdf: only the server can tell, by its first bytes.
  await page.getByLabel("Attach files").setInputFiles({
    name: "invoice.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]),
  });
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText(`We support attaching only these types of files: ${TYPES}`)).toBeVisible();
  await expect(page.locator(".chat__message").filter({ hasText: word })).toHaveCount(0);
  // The text stays; the learner chooses a file again.
  await expect(page.getByLabel("Message", { exact: true })).toHaveValue(word);

  const big = Buffer.alloc(10 * 1024 * 1024 + 1);
  PDF.copy(big);
  await page.getByLabel("Attach files").setInputFiles({ name: "big.pdf", mimeType: "application/pdf", buffer: big });
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("We support attaching files not bigger than 10.00 MB")).toBeVisible();
  await expect(page.locator(".chat__message").filter({ hasText: word })).toHaveCount(0);
  if (!jsEnabled) await expectNoReact(page);
  await expectAccessible(page);
});

test("a chat file is not served to a learner outside the course, nor signed out", async ({
  page,
  learner,
  newLearner,
  browser,
  baseURL,
}) => {
  await openChat(page, learner);
  const word = `private-${crypto.randomUUID()}`;
  await page.getByLabel("Message", { exact: true }).fill(word);
  await page.getByLabel("Attach files").setInputFiles({ name: "secret.pdf", mimeType: "application/pdf", buffer: PDF });
  await page.getByRole("button", { name: "Send" }).click();
  const link = page
    .locator(".chat__message")
    .filter({ hasText: word })
    .getByRole("link", { name: /secret\.pdf/ });
  const url = (await link.getAttribute("href"))!;

  const stranger = await newLearner({ enrolments: [] });
  const ctx = await browser.newContext();
  try {
    const other = await ctx.newPage();
    await login(other, stranger, "/learn/courses");
    expect((await other.request.get(url)).status()).toBe(404);
    expect((await other.request.head(url)).status()).toBe(404);
  } finally {
    await ctx.close();
  }
  const anonymous = await fetch(`${baseURL}${url}`, { redirect: "manual" });
  expect(anonymous.status).toBe(401);
});

test("another learner's file arrives in the open chat with its link (live with JavaScript, by Refresh without)", async ({
  page,
  learner,
  newLearner,
  browser,
  jsEnabled,
}) => {
  await openChat(page, learner);
  const other = await newLearner({ enrolments: [onboarding] });
  const ctx = await browser.newContext();
  try {
    const theirs = await ctx.newPage();
    await openChat(theirs, other);
    const word = `live-file-${crypto.randomUUID()}`;
    await theirs.getByLabel("Message", { exact: true }).fill(word);
    await theirs
      .getByLabel("Attach files")
      .setInputFiles({ name: "handout.pdf", mimeType: "application/pdf", buffer: PDF });
    await theirs.getByRole("button", { name: "Send" }).click();
    await expect(theirs.getByText("Message sent.")).toBeVisible();
    if (!jsEnabled) await page.getByRole("link", { name: "Refresh" }).click();
    const arrived = page.locator(".chat__message").filter({ hasText: word });
    await expect(arrived.getByRole("link", { name: `handout.pdf (${PDF.length} B)` })).toHaveAttribute(
      "href",
      /^\/learn\/chat-files\/[0-9a-f-]{36}$/,
    );
  } finally {
    await ctx.close();
  }
});
