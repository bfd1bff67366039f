import { test, expect, login, expectAccessible } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * Course details (spec 2.5): ada's certificates and the proctor lock (spec 4.3, 4.8), as the demo data
 * gives them to her (demo/data/learners/ada.json), each test on a learner of its own like ada.
 */
test.use({ learnerRecipe: { like: "ada" } });

const DATE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;
/** 80 random bits in four groups of Crockford base 32. */
const NUMBER = /^LA(-[0-9A-HJKMNP-TV-Z]{4}){4}$/;

/** A course's id from its card on My courses (its link goes to /learn/courses/{id}…). */
async function myCourseId(page: Page, name: string): Promise<string> {
  await page.goto(`/learn/courses?keyword=${encodeURIComponent(name.toLowerCase())}`);
  const card = page
    .locator(".card-grid > li.course-card")
    .filter({ has: page.getByRole("heading", { name, exact: true }) });
  const href = await card.getByRole("link").getAttribute("href");
  const id = /^\/learn\/courses\/([0-9a-f-]{36})(?:\/|$)/.exec(href ?? "")?.[1];
  expect(id, `course id of ${name}`).toBeTruthy();
  return id!;
}

async function openCourse(page: Page, name: string) {
  const id = await myCourseId(page, name);
  await page.goto(`/learn/courses/${id}`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

test.beforeEach(async ({ page, learner }) => {
  await login(page, learner);
  await expect(page.locator("details.user-menu")).toBeVisible();
});

test(
  "ada's certificates for a course: newest first, the expired one marked, with its ID, dates and PDF",
  { tag: "@js-only" },
  async ({ page }) => {
    await openCourse(page, "SQL Fundamentals");
    const section = page.getByRole("region", { name: "Certificates" });
    await expect(section).toBeVisible();
    await expect(section.getByRole("columnheader")).toHaveText([
      "Certificate",
      "Certificate ID",
      "Issued",
      "Expires",
      "Download PDF",
    ]);
    const rows = section.locator("tbody tr");
    await expect(rows).toHaveCount(2);

    const cells = async (i: number) => (await rows.nth(i).locator("th, td").allTextContents()).map((s) => s.trim());
    const [newest, older] = [await cells(0), await cells(1)];
    for (const row of [newest, older]) {
      expect(row[0]).toBe("SQL Fundamentals Certificate");
      expect(row[1]).toMatch(NUMBER);
      expect(row[2]).toMatch(DATE);
    }
    expect(newest[1]).not.toBe(older[1]);
    // Newest first: issued three weeks ago, valid for a year; the one from a year ago has expired.
    expect(Date.parse(newest[2])).toBeGreaterThan(Date.parse(older[2]));
    expect(newest[3]).toMatch(DATE);
    expect(Date.parse(newest[3])).toBeGreaterThan(Date.now());
    expect(older[3]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4} \(expired\)$/);
    expect(Date.parse(older[3].replace(" (expired)", ""))).toBeLessThan(Date.now());
    await expect(rows.nth(0).getByText("(expired)")).toHaveCount(0);
    await expect(rows.nth(1).getByText("(expired)")).toBeVisible();

    // Each number opens its preview; the PDF downloads from the link (issue 12: the stored file).
    const links = section.getByRole("link");
    await expect(links).toHaveCount(4);
    await expect(rows.nth(0).getByRole("link", { name: newest[1] })).toHaveAttribute(
      "href",
      new RegExp(`/certificate/${newest[1]}$`),
    );
    const download = rows.nth(0).getByRole("link", { name: "Download PDF" });
    await expect(download).toHaveAccessibleDescription(newest[1]);
    const href = await download.getAttribute("href");
    expect(href).toMatch(new RegExp(`^/learn/courses/[0-9a-f-]{36}/certificate/${newest[1]}/download/pdf$`));
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    expect((await pdf.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");

    await expectAccessible(page);
  },
);

test(
  "on a phone each certificate is one block: every value under its column's name, the PDF link on screen",
  { tag: "@js-only" },
  async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openCourse(page, "SQL Fundamentals");
    const section = page.getByRole("region", { name: "Certificates" });
    const first = section.locator("tbody tr").first();
    // Each value is drawn under its column's name (CSS generated text, not read twice by a screen reader).
    const labels = await first
      .locator("td")
      .evaluateAll((cells) => cells.map((c) => getComputedStyle(c, "::before").content));
    expect(labels.slice(0, 3)).toEqual([
      expect.stringContaining("Certificate ID"),
      expect.stringContaining("Issued"),
      expect.stringContaining("Expires"),
    ]);
    // Still a table to a screen reader: the column headers are there.
    await expect(section.getByRole("columnheader")).toHaveCount(5);
    const download = first.getByRole("link", { name: "Download PDF" });
    // Within the phone's width, without scrolling anything sideways.
    const box = (await download.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    const scroller = section.locator(".certificates__scroll");
    expect(await scroller.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await expectAccessible(page);
  },
);

test(
  "no Certificates section where ada has none to show: failed attempts, results not yet revealed",
  { tag: "@js-only" },
  async ({ page }) => {
    // Both attempts failed.
    await openCourse(page, "Introduction to Machine Learning");
    await expect(page.getByRole("region", { name: "Results" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Certificates" })).toHaveCount(0);
    // Passed, but the exam's results are released only next week: the certificate waits with them.
    await openCourse(page, "Cyber Security Certification Exam");
    await expect(page.getByRole("region", { name: "Results" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Certificates" })).toHaveCount(0);
  },
);

test("a proctored exam whose proctored session has ended: Continue is disabled with the lock message", async ({
  page,
}) => {
  await openCourse(page, "Data Protection Officer Certification Exam");
  const actions = page.getByRole("complementary", { name: "Course actions" });
  const cont = actions.getByRole("button", { name: "Continue" });
  await expect(cont).toBeDisabled();
  // The lock says who can lift it.
  const lock =
    "Locked by the proctoring session. Your proctored sitting is over: only your proctor or an administrator can unlock this course.";
  await expect(cont).toHaveAccessibleDescription(lock);
  await expect(actions.getByRole("link", { name: "Continue" })).toHaveCount(0);
  await expect(page.getByRole("note")).toHaveText(lock);
  await expect(page.getByRole("region", { name: "Results" }).getByText("In Progress")).toBeVisible();
  await expectAccessible(page);
});

test(
  "the content of that exam, opened by its address, says it is locked and offers no activity actions",
  { tag: "@js-only" },
  async ({ page }) => {
    const id = await myCourseId(page, "Data Protection Officer Certification Exam");
    await page.goto(`/learn/courses/${id}/view/content`);
    await expect(page.getByRole("note").filter({ hasText: "Locked by the proctoring session." })).toBeVisible();
    await expect(page.locator(".activity-panel__actions")).toHaveCount(0);
    await expectAccessible(page);
  },
);
