import { readFileSync, rmSync } from "node:fs";
import type { Page } from "@playwright/test";
import { test, expect, login } from "./fixtures";
import { zipFolder } from "../../api/scorm/zip-folder";

/**
 * Issue 29 item 1 (decision 040): a SCORM package is code an author wrote, run as the learner who opens
 * it. This one (tests/fixtures/scorm-hostile/) tries to read the learner's pages and data through the
 * app's routes with the learner's cookies, to read the app's window, its cookies and storage, to change
 * the learner's language with a cross-site write and a form posted into the app's page, to navigate the
 * app's page away, and to forge the player's messages. It may only change its own run-time data.
 */
const sco = (page: Page, title: string) => page.frameLocator(`iframe[title="${title}"]`).frameLocator("iframe#sco");

/** What the browser logs when it stops the package's attempts (the test expects exactly these). */
const REFUSALS = [
  /blocked by CORS policy/,
  /Failed to load resource: net::ERR_FAILED/,
  /Unsafe attempt to initiate navigation/,
  /Blocked form submission/,
  /Refused to send form data/,
  /violates the following Content Security Policy directive/,
  /Refused to connect because it violates the document's Content Security Policy/,
  /Failed to load resource: the server responded with a status of 403/,
];

test("a hostile package reads nothing of the learner's and changes nothing but its own data", async ({
  page,
  request,
  learner,
  jsEnabled,
  consoleErrors,
}) => {
  const zip = zipFolder("tests/fixtures/scorm-hostile");
  const body = readFileSync(zip);
  rmSync(zip);
  const made = await request.post(
    `/api/test-support/v1/scorm-courses?learner=${learner.id}&name=${encodeURIComponent("Innocent-looking course")}`,
    { data: body, headers: { "Content-Type": "application/zip" } },
  );
  expect(made.status()).toBe(201);
  await login(page, learner, "/learn/courses");
  await page.getByRole("link", { name: "Innocent-looking course" }).first().click();
  await page.getByRole("button", { name: "Start activity" }).click();
  if (!jsEnabled) {
    // Without JavaScript no package runs at all.
    await expect(page.getByText(/runs only with JavaScript/)).toBeVisible();
    await expect(page.locator("iframe")).toHaveCount(0);
    return;
  }
  const path = new URL(page.url()).pathname;
  const probe = sco(page, "Probe");
  await expect(probe.locator('[data-probe="done"]')).toBeAttached({ timeout: 20_000 });
  const outcome = (name: string) => probe.locator(`[data-probe="${name}"]`);
  // What SCORM gives every SCO by design: the learner's name (cmi.learner_name) — nothing more.
  await expect(probe.locator("#learner")).toHaveText(/^Hello .+, .+$/);
  for (const name of [
    "cookies",
    "top-document",
    "top-storage",
    "courses-data",
    "profile-data",
    "api-me",
    "runtime-relay",
  ])
    await expect(outcome(name), name).toHaveAttribute("data-outcome", "blocked");
  await expect(outcome("content-origin-storage")).toHaveAttribute("data-outcome", "empty");
  // The app's page stayed where it was, and the cross-site write changed nothing.
  expect(new URL(page.url()).pathname).toBe(path);
  await expect(page.getByRole("status").filter({ hasText: "Your progress is saved." })).toBeVisible();
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Innocent-looking course");
  // Its forged save for the other part reached nothing: that part starts fresh…
  const toc = page.getByRole("navigation", { name: "Parts of this package" });
  await toc.getByRole("button", { name: "Another part" }).click();
  await expect(sco(page, "Another part").locator("#state")).toHaveText("entry=ab-initio location=");
  // …while its own data came back to it.
  await toc.getByRole("button", { name: "Probe" }).click();
  await expect(sco(page, "Probe").locator("#before")).toHaveText("entry=resume location=hostile-was-here");
  // The browser said what it refused; nothing else went wrong.
  const unexpected = consoleErrors.filter((e) => !REFUSALS.some((re) => re.test(e)));
  expect(unexpected).toEqual([]);
  consoleErrors.length = 0;
});

/** A 1.2 package whose SCO needs a script from another site before it initialises, as many exports do. */
const CDN_PACKAGE = {
  "imsmanifest.xml": `<?xml version="1.0"?>
<manifest identifier="cdn" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>Needs a CDN</title>
    <item identifier="lesson" identifierref="r"><title>Lesson from a CDN</title></item>
  </organization></organizations>
  <resources><resource identifier="r" type="webcontent" adlcp:scormtype="sco" href="index.html"><file href="index.html"/></resource></resources>
</manifest>`,
  "index.html": `<!DOCTYPE html><html lang="en"><head><title>Lesson</title>
<script src="https://cdn.example.com/jquery.min.js"></script>
<script>window.$ && window.parent.API.LMSInitialize("");</script></head><body><p>Lesson</p></body></html>`,
};

test(
  "a package whose script is blocked says it did not start, rather than nothing",
  { tag: "@js-only" },
  async ({ page, request, learner, consoleErrors }) => {
    test.setTimeout(60_000);
    const zip = zipFolder(null, CDN_PACKAGE);
    const body = readFileSync(zip);
    rmSync(zip);
    const made = await request.post(
      `/api/test-support/v1/scorm-courses?learner=${learner.id}&name=${encodeURIComponent("Course from a CDN")}`,
      { data: body, headers: { "Content-Type": "application/zip" } },
    );
    expect(made.status()).toBe(201);
    await login(page, learner, "/learn/courses");
    await page.getByRole("link", { name: "Course from a CDN" }).first().click();
    await page.getByRole("button", { name: "Start activity" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "This part did not start" })).toBeVisible({
      timeout: 25_000,
    });
    expect(consoleErrors.filter((e) => !REFUSALS.some((re) => re.test(e)))).toEqual([]);
    consoleErrors.length = 0;
  },
);
