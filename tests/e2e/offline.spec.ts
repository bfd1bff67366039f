import type { Page } from "@playwright/test";
import { test, expect, login, expectAccessible, courseIdByName, type Learner } from "./fixtures";

/**
 * Issue 31 item 3 (decision 044): the installable app and courses read offline. The service worker
 * needs JavaScript, so the offline journeys run in the `js` project; without JavaScript the course page
 * still works and shows no offline control at all. Each test signs in as a learner of its own, like ada
 * (Python for Data Analysis in progress, its Module 7 locked until next week). The browser goes offline
 * through the context's switch (`context.setOffline`), which the service worker's requests obey too.
 */
test.use({ learnerRecipe: { like: "ada" } });

const PYTHON = "Python for Data Analysis";
/** Module 1's text with nothing locked, Module 3's text with an image, the PDF, and Module 7's locked brief. */
const WELCOME = "Welcome to Python for Data Analysis";
const WITH_IMAGE = "Reading CSV and Excel files";
const PDF = "Course handbook (PDF)";
const TO_FINISH = "Missing values, duplicates and types";
const LOCKED = "Project brief: bike-share demand";

async function signIn(page: Page, learner: Learner) {
  await login(page, learner);
  await expect(page.locator("details.user-menu")).toBeVisible();
}

async function signOut(page: Page) {
  await page.locator("details.user-menu summary").click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/learn\/signed-out$/);
}

const toc = (page: Page) => page.getByRole("navigation", { name: "Table of contents" });
const tocLink = (page: Page, name: string) =>
  toc(page)
    .getByRole("listitem")
    .filter({ has: page.locator(".toc__name").getByText(name, { exact: true }) })
    .getByRole("link");

/** The address of an activity's page, from the table of contents. */
async function activityUrl(page: Page, courseId: string, name: string): Promise<string> {
  await page.goto(`/learn/courses/${courseId}/view/content`);
  const href = await tocLink(page, name).getAttribute("href");
  expect(href, `table-of-contents link of ${name}`).toBeTruthy();
  // The page's address (the link's fragment, the activity's heading, is never part of a request).
  return href!.split("#")[0]!;
}

/** The course page, with the service worker in charge of this browser's pages under /learn/. */
async function openCourse(page: Page, courseId: string) {
  await page.goto(`/learn/courses/${courseId}`);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
}

/** "Make available offline", and what the page then says of the copy. */
async function makeAvailableOffline(page: Page, courseId: string) {
  await openCourse(page, courseId);
  const section = page.getByRole("region", { name: "Offline reading" });
  await section.getByRole("button", { name: "Make available offline" }).click();
  await expect(section.getByText(/^Available offline: saved on .+, [\d.,]+ (KB|MB)$/)).toBeVisible({
    timeout: 20_000,
  });
  return section;
}

/** Every cache the service worker keeps: its name and the addresses in it. */
function cachedAddresses(page: Page) {
  return page.evaluate(async () => {
    const out: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      out[name] = (await cache.keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search);
    }
    return out;
  });
}

const copies = (all: Record<string, string[]>) => Object.keys(all).filter((n) => n.startsWith("learn-copy:"));

/**
 * The network off or on. Before it goes off the page is left, so no script of a live page asks the server
 * anything meanwhile (React Router's route discovery would log its failed fetch as a console error).
 */
async function offline(page: Page, on: boolean) {
  if (on) await page.goto("about:blank");
  await page.context().setOffline(on);
}

// The service worker needs JavaScript.
test.describe("with JavaScript", { tag: "@js-only" }, () => {
  test("installable: the manifest is linked, named, standalone, with icons and theme colours; the worker adds no first-load script", async ({
    page,
    learner,
    request,
  }) => {
    await signIn(page, learner);
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    expect(href).toBe("/learn/manifest.webmanifest");
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", /^#[0-9a-f]{6}$/i);
    const manifest = (await (await request.get(href!)).json()) as Record<string, unknown> & {
      icons: { src: string; sizes: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({ display: "standalone", start_url: "/learn", scope: "/learn" });
    expect(manifest.name).toBeTruthy();
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    for (const size of ["192x192", "512x512"]) {
      const icon = manifest.icons.find((i) => i.sizes === size && i.purpose === "any");
      expect(icon, `a ${size} icon`).toBeTruthy();
      const png = await request.get(icon!.src);
      expect(png.status()).toBe(200);
      expect(png.headers()["content-type"]).toBe("image/png");
    }
    expect(manifest.icons.some((i) => i.purpose === "maskable")).toBe(true);

    // Registered after the page loaded, from the document: no module of the page's imports it.
    const scripts = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name));
    // By the chunk's name, without its content hash (a hash such as "DswqKyDq" may well contain "sw").
    const chunkNames = scripts
      .filter((s) => /\/learn\/assets\/[^/]+\.js$/.test(s))
      .map((s) =>
        s
          .split("/")
          .pop()!
          .replace(/-[\w-]{8}\.js$/, ""),
      );
    expect(chunkNames.filter((name) => /\b(sw|workbox)\b|service-?worker/i.test(name))).toEqual([]);
    const registration = await page.evaluate(async () => {
      const r = await navigator.serviceWorker.ready;
      return { scope: r.scope, script: r.active?.scriptURL };
    });
    // The dashboard (/learn, the installed app's start) is the worker's too.
    expect(registration.scope).toMatch(/\/learn$/);
    expect(registration.script).toMatch(/\/learn\/sw\.js$/);
    const sw = await request.get("/learn/sw.js");
    expect(sw.headers()["cache-control"]).toBe("no-cache");
    expect(sw.headers()["service-worker-allowed"]).toBe("/learn");
  });

  test("a course made available offline opens from its copy offline: texts, images, the PDF; never locked content; never a data answer", async ({
    page,
    learner,
  }) => {
    test.setTimeout(90_000);
    await signIn(page, learner);
    const courseId = await courseIdByName(page, PYTHON);
    const imageUrl = await activityUrl(page, courseId, WITH_IMAGE);
    const pdfUrl = await activityUrl(page, courseId, PDF);
    const section = await makeAvailableOffline(page, courseId);
    await expect(section.getByRole("button", { name: "Remove the offline copy" })).toBeVisible();

    // What was kept: the learner's pages, the image and the PDF; no locked activity, no data answer, no API.
    const kept = await cachedAddresses(page);
    expect(copies(kept)).toHaveLength(1);
    const pages = kept[copies(kept)[0]];
    expect(pages).toContain(`/learn/courses/${courseId}`);
    expect(pages).toContain(imageUrl);
    expect(pages).toContain(pdfUrl);
    // No kept page is the locked activity's (its name is in every table of contents, never a page's heading).
    const headings = await page.evaluate(async () => {
      const out: string[] = [];
      for (const cacheName of await caches.keys()) {
        if (!cacheName.startsWith("learn-copy:")) continue;
        const cache = await caches.open(cacheName);
        for (const request of await cache.keys()) {
          const response = await cache.match(request);
          if (!response?.headers.get("Content-Type")?.startsWith("text/html")) continue;
          const doc = new DOMParser().parseFromString(await response.text(), "text/html");
          out.push(...[...doc.querySelectorAll("h1")].map((h) => h.textContent?.trim() ?? ""));
        }
      }
      return out;
    });
    expect(headings).toContain(WELCOME);
    expect(headings).toContain(WITH_IMAGE);
    expect(headings).not.toContain(LOCKED);
    expect(pages).toContain("/learn/demo/diagram-1.svg");
    expect(pages).toContain("/learn/demo/course-handbook.pdf");
    for (const list of Object.values(kept))
      for (const address of list) {
        expect(address).not.toMatch(/\.data(\?|$)/);
        expect(address).not.toMatch(/^\/api\//);
      }

    await offline(page, true);
    await page.goto(`/learn/courses/${courseId}`);
    const banner = page.getByRole("status").filter({ hasText: /You are offline: this is the copy saved on/ });
    await expect(banner).toBeVisible();
    // Links of a copy open other copies (whole pages: no script runs in a copy).
    await page.goto(`/learn/courses/${courseId}/view/content`);
    await expect(banner).toBeVisible();
    await tocLink(page, WITH_IMAGE).click();
    await expect(page.getByRole("heading", { level: 1, name: WITH_IMAGE })).toBeVisible();
    await expect(banner).toBeVisible();
    const image = page.locator('img[src="/learn/demo/diagram-1.svg"]');
    await expect(image).toBeVisible();
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expectAccessible(page);
    // 390 px: nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.goto(pdfUrl);
    await expect(page.getByRole("heading", { level: 1, name: PDF })).toBeVisible();
    const pdf = page.locator("object[data*='course-handbook.pdf']");
    await expect(pdf).toHaveCount(1);
    const pdfStatus = await page.evaluate(
      async (src) => (await fetch(src ?? "")).status,
      await pdf.getAttribute("data"),
    );
    expect(pdfStatus).toBe(200);

    // A page never kept: the offline page, in English.
    await page.goto("/learn/calendar");
    await expect(page.getByRole("heading", { level: 1, name: "You are offline" })).toBeVisible();
    // It lists what this device keeps, and says so accessibly.
    await expect(page.getByRole("link", { name: PYTHON })).toBeVisible();
    await expectAccessible(page);

    // Back online: the page is the network's again, and the copy can be removed.
    await offline(page, false);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openCourse(page, courseId);
    await expect(banner).toHaveCount(0);
    const again = page.getByRole("region", { name: "Offline reading" });
    await again.getByRole("button", { name: "Remove the offline copy" }).click();
    await expect(again.getByText("The offline copy was removed.")).toBeVisible();
    expect(copies(await cachedAddresses(page))).toEqual([]);
  });

  test("Mark as done offline is queued with its command id and counted once when back online", async ({
    page,
    learner,
  }) => {
    test.setTimeout(90_000);
    await signIn(page, learner);
    const courseId = await courseIdByName(page, PYTHON);
    const url = await activityUrl(page, courseId, TO_FINISH);
    const progressBefore = await toc(page).locator(".toc__progress").textContent();
    await expect(tocLink(page, TO_FINISH)).toContainText("Not started");
    await makeAvailableOffline(page, courseId);

    await offline(page, true);
    await page.goto(url);
    await expect(page.getByRole("heading", { level: 1, name: TO_FINISH })).toBeVisible();
    const form = page.locator("form[data-offline-form]");
    const commandId = await form.locator('input[name="commandId"]').inputValue();
    expect(commandId).toMatch(/^[0-9a-f-]{36}$/);
    const fields = Object.fromEntries(
      await form
        .locator("input[type=hidden]")
        .evaluateAll((inputs: HTMLInputElement[]) => inputs.map((i) => [i.name, i.value] as const)),
    ) as Record<string, string>;
    await form.getByRole("button", { name: "Mark as done" }).click();
    await expect(
      page.getByText("Marked as done on this device: it will be sent when you are back online."),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Mark as done" })).toHaveCount(0);
    // Opened again offline, the copy still says it waits (and offers no second press).
    await page.goto(url);
    await expect(page.getByText(/Marked as done on this device/)).toBeVisible();

    // Back online: the next page sends what waited, before it is shown.
    await offline(page, false);
    await expect(async () => {
      await page.goto(`/learn/courses/${courseId}/view/content`);
      await expect(tocLink(page, TO_FINISH)).toContainText("Completed", { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    const progressAfter = await toc(page).locator(".toc__progress").textContent();
    expect(progressAfter).not.toBe(progressBefore);
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    // The same write sent again (its command id) changes nothing: counted once.
    const origin = new URL(page.url()).origin;
    const replay = await page.request.post(url, {
      form: fields,
      headers: { Origin: origin, "X-Offline-Replay": "1", Accept: "application/json" },
      maxRedirects: 0,
    });
    expect(replay.status()).toBe(200);
    await page.goto(`/learn/courses/${courseId}/view/content`);
    await expect(toc(page).locator(".toc__progress")).toHaveText(progressAfter!);
  });

  test("two learners on one browser: sign-out removes every copy, and the next learner never sees the first one's pages", async ({
    page,
    learner,
    newLearner,
  }) => {
    test.setTimeout(90_000);
    await signIn(page, learner);
    const courseId = await courseIdByName(page, PYTHON);
    const url = await activityUrl(page, courseId, WELCOME);
    await makeAvailableOffline(page, courseId);
    expect(copies(await cachedAddresses(page))).toHaveLength(1);

    await signOut(page);
    await expect.poll(async () => copies(await cachedAddresses(page))).toEqual([]);

    const second = await newLearner({ like: "grace" });
    await signIn(page, second);
    await offline(page, true);
    for (const address of [`/learn/courses/${courseId}`, url]) {
      await page.goto(address);
      await expect(page.getByRole("heading", { level: 1, name: "You are offline" })).toBeVisible();
    }
    await expect(page.getByRole("link", { name: PYTHON })).toHaveCount(0);
    await offline(page, false);
  });

  test("the offline page speaks the learner's language, right to left in Arabic", async ({
    page,
    context,
    learner,
  }) => {
    await signIn(page, learner);
    await page.goto("/learn/profile");
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    // The language of the learner's pages changes: the worker keeps the offline page in that language.
    const value = encodeURIComponent(Buffer.from(JSON.stringify("ar")).toString("base64"));
    await context.addCookies([{ name: "lng", value, url: new URL(page.url()).origin }]);
    await page.goto("/learn/courses");
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const kept = await caches.match("/learn/offline");
          return kept?.headers.get("Content-Language") ?? null;
        }),
      )
      .toBe("ar");
    await offline(page, true);
    await page.goto("/learn/certificates");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("أنت غير متصل بالإنترنت");
    await expectAccessible(page);
    await offline(page, false);
  });
});

// The JavaScript project checks the control itself.
test(
  "without JavaScript the course page works and shows no offline control",
  { tag: "@nojs-only" },
  async ({ page, learner }) => {
    await signIn(page, learner);
    const courseId = await courseIdByName(page, PYTHON);
    await page.goto(`/learn/courses/${courseId}`);
    await expect(page.getByRole("heading", { level: 1, name: PYTHON })).toBeVisible();
    await expect(page.getByRole("region", { name: "Offline reading" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Make available offline" })).toHaveCount(0);
    await expect(page.getByText(/You are offline/)).toHaveCount(0);
    // The content page: "Start activity" / "Mark as done" as ever, no queued note.
    await page.goto(`/learn/courses/${courseId}/view/content`);
    await expect(page.getByText(/Marked as done on this device/)).toBeHidden();
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/learn/manifest.webmanifest");
  },
);
