import { test, expect, login, expectAccessible } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * An LTI 1.3 activity launches into the demo tool (demo/tools/lti13.ts), which verifies the
 * id_token with the platform's JWKS and posts a score back through AGS; the activity is then completed.
 * With JavaScript the tool is embedded in a frame; without, a button opens it in a window of its own and
 * the self-posting forms are buttons.
 */
test.use({
  learnerRecipe: {
    enrolments: [
      { course: "git-workflows", selfEnrolled: true, attempts: [{ state: "inProgress", progress: 0, startedAgo: 1 }] },
      {
        course: "sql-fundamentals",
        selfEnrolled: true,
        attempts: [{ state: "inProgress", progress: 0, startedAgo: 1 }],
      },
      {
        course: "testing-strategies",
        selfEnrolled: true,
        attempts: [{ state: "inProgress", progress: 0, startedAgo: 1 }],
      },
      { course: "physics-lab", selfEnrolled: true, attempts: [{ state: "inProgress", progress: 0, startedAgo: 1 }] },
    ],
  },
});

const COURSE = "Git Workflows for Teams";
const LAB = "Lab: resolve a merge conflict";
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** The course's content page, found through My courses; its id. */
async function openContent(page: Page, course: string) {
  await page.goto(`/learn/courses?keyword=${encodeURIComponent(course.split(" ")[0]!.toLowerCase())}`);
  const card = page
    .locator(".card-grid > li.course-card")
    .filter({ has: page.getByRole("heading", { name: course, exact: true }) });
  const href = await card.getByRole("link").first().getAttribute("href");
  const id = new RegExp(`/learn/courses/(${UUID})`).exec(href ?? "")?.[1];
  expect(id).toBeTruthy();
  await page.goto(`/learn/courses/${id}/view/content`);
  return id!;
}

async function openLab(page: Page, course = COURSE, lab = LAB) {
  const id = await openContent(page, course);
  const link = page
    .getByRole("navigation", { name: "Table of contents" })
    .getByRole("link", { name: new RegExp(lab) })
    .first();
  await page.goto((await link.getAttribute("href"))!);
  await expect(page.getByRole("heading", { level: 1, name: lab, exact: true })).toBeVisible();
  return id;
}

test("an LTI 1.3 activity launches into the demo tool, and the tool's score completes it", async ({
  page,
  learner,
  jsEnabled,
}) => {
  await login(page, learner);
  await openLab(page);
  let tool;
  if (jsEnabled) {
    const frame = page.locator(`iframe[title="External tool: ${LAB}"]`);
    await expect(frame).toBeVisible();
    await expectAccessible(page);
    tool = page.frameLocator(`iframe[title="External tool: ${LAB}"]`);
    await expect(tool.getByRole("button", { name: "Send the score" })).toBeVisible({ timeout: 15_000 });
  } else {
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      page.getByRole("button", { name: "Open the tool", exact: true }).click(),
    ]);
    // Without JavaScript each hop is a button: to the tool's login, then the id_token's form_post.
    await popup.getByRole("button", { name: "Continue to the tool" }).click();
    await popup.getByRole("button", { name: "Continue to the tool" }).click();
    tool = popup;
  }
  await expect(tool.getByText("Launch verified with the platform's keys.")).toBeVisible();
  await expect(tool.getByTestId("lti-sub")).toHaveText(learner.id);
  await expect(tool.getByTestId("lti-resource")).toHaveText(LAB);
  await tool.getByLabel("Score out of 10").fill("7");
  await tool.getByRole("button", { name: "Send the score" }).click();
  await expect(tool.getByText("Your score 7 / 10 was sent to the course.")).toBeVisible();

  if (jsEnabled) {
    // The tool's way back is the bridge: its LTI redirect message reloads the course view (spec 4.4).
    await tool.getByRole("link", { name: "Return to the course" }).click();
  } else {
    await page.reload();
  }
  await expect(page.locator(".activity-panel__meta").first()).toContainText("Completed");
});

test("the tool's frame takes the tool's registered sandbox and allow, and EmbeddedCustom the activity's size", async ({
  page,
  learner,
  jsEnabled,
}) => {
  await login(page, learner);
  if (!jsEnabled) {
    // Without JavaScript no frame is made: the tool opens in a window of its own.
    await openLab(page);
    await expect(page.locator("iframe")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Open the tool", exact: true })).toBeVisible();
    return;
  }
  // EmbeddedAuto (Git Workflows): the demo tool's registry entry gives the frame its sandbox.
  await openLab(page);
  const auto = page.locator(`iframe[title="External tool: ${LAB}"]`);
  await expect(auto).toHaveAttribute("sandbox", "allow-scripts allow-forms allow-same-origin allow-popups");
  await expect(auto).toHaveAttribute("allow", "fullscreen; clipboard-write");

  // EmbeddedCustom (Physics Lab Simulations, 1200 × 800): at most the column's width, the aspect kept.
  // The course is one activity: its content page is the tool.
  await openContent(page, "Physics Lab Simulations");
  const custom = page.locator('iframe[title="External tool: Physics Lab Simulations"]');
  await expect(custom).toHaveAttribute("sandbox", "allow-scripts allow-forms allow-same-origin allow-popups");
  const box = (await custom.boundingBox())!;
  const column = (await page.locator(".activity").first().boundingBox())!;
  expect(box.width).toBeLessThanOrEqual(Math.min(1200, column.width) + 1);
  expect(box.height / box.width).toBeCloseTo(800 / 1200, 1);
  await expect(
    page
      .frameLocator('iframe[title="External tool: Physics Lab Simulations"]')
      .getByText("Launch verified with the platform's keys."),
  ).toBeVisible({ timeout: 15_000 });
});

test("the bridge: do_navigation moves the page to a path of this site, never to another origin", async ({
  page,
  learner,
  jsEnabled,
}) => {
  await login(page, learner);
  if (!jsEnabled) {
    // Without JavaScript the bridge is a page with a link; another origin is refused.
    await page.goto("/learn/lti-tool-callback?do_navigation=%2Flearn%2Fcalendar");
    await expect(page.getByRole("link", { name: "Continue" })).toHaveAttribute("href", "/learn/calendar");
    const res = await page.goto("/learn/lti-tool-callback?do_navigation=https%3A%2F%2Fevil.example%2F");
    expect(res?.status()).toBe(400);
    await expect(page.getByRole("alert")).toHaveText(
      "The tool asked to open a page outside this site; it was not opened.",
    );
    return;
  }
  const id = await openLab(page);
  const frame = page.locator(".lti-launch__frame");
  await expect(frame).toBeVisible();
  // Another origin: refused inside the frame, the page stays.
  await frame.evaluate((el: HTMLIFrameElement) => {
    el.src = "/learn/lti-tool-callback?do_navigation=https%3A%2F%2Fevil.example%2F";
  });
  await expect(
    page.frameLocator(".lti-launch__frame").getByText("The tool asked to open a page outside this site"),
  ).toBeVisible();
  expect(page.url()).toContain(`/learn/courses/${id}/view/content`);
  // A path of this site: the page goes there.
  await frame.evaluate((el: HTMLIFrameElement) => {
    el.src = "/learn/lti-tool-callback?do_navigation=%2Flearn%2Fcalendar";
  });
  await expect(page).toHaveURL(/\/learn\/calendar/);
});

test("an LTI 1.1 activity posts its signed form to the demo 1.1 tool, and replaceResult completes it", async ({
  page,
  learner,
  jsEnabled,
}) => {
  const lab = "Lab: test a pricing function";
  await login(page, learner);
  await openLab(page, "Testing Strategies: Unit, Integration and End-to-End", lab);
  let tool;
  if (jsEnabled) {
    tool = page.frameLocator(`iframe[title="External tool: ${lab}"]`);
  } else {
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      page.getByRole("button", { name: "Open the tool", exact: true }).click(),
    ]);
    await popup.getByRole("button", { name: "Continue to the tool" }).click();
    tool = popup;
  }
  await expect(tool.getByText("Launch signature verified.")).toBeVisible({ timeout: 15_000 });
  await expect(tool.getByTestId("lti-sub")).toHaveText(learner.id);
  await expect(tool.getByTestId("lti-resource")).toHaveText(lab);
  await tool.getByRole("button", { name: "Send the score" }).click();
  await expect(tool.getByText("Your score 9 / 10 was sent to the course.")).toBeVisible();
  await page.reload();
  await expect(page.locator(".activity-panel__meta").first()).toContainText("Completed");
});

test(
  "the table of contents marks a proctored activity with an icon and its meaning",
  { tag: "@js-only" },
  async ({ page, learner }) => {
    await login(page, learner);
    await page.goto(`/learn/courses?keyword=sql`);
    const card = page
      .locator(".card-grid > li.course-card")
      .filter({ has: page.getByRole("heading", { name: "SQL Fundamentals", exact: true }) });
    const href = await card.getByRole("link").first().getAttribute("href");
    const id = new RegExp(`/learn/courses/(${UUID})`).exec(href ?? "")?.[1];
    await page.goto(`/learn/courses/${id}/view/content`);
    const toc = page.getByRole("navigation", { name: "Table of contents" });
    const item = (name: string) =>
      toc.getByRole("listitem").filter({ has: page.locator(".toc__name").getByText(name, { exact: true }) });
    const mark = item("Final quiz").locator(".toc__proctored");
    await expect(mark).toHaveAttribute("title", "Proctored activity: a proctor watches this sitting");
    await expect(mark.locator(".visually-hidden")).toHaveText("Proctored activity: a proctor watches this sitting");
    await expect(item("Practice: joins").locator(".toc__proctored")).toHaveCount(0);
    await expectAccessible(page);
  },
);

test(
  "the platform publishes its JWKS, and refuses a garbled or unsigned authentication request",
  { tag: "@js-only" },
  async ({ page, learner, request }) => {
    const jwks = await request.get("/api/lti/v1/jwks");
    expect(jwks.status()).toBe(200);
    const body = await jwks.json();
    expect(body.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
    expect(body.keys[0].d).toBeUndefined();
    await login(page, learner);
    const res = await page.goto(
      "/learn/lti/authorize?scope=openid&response_type=id_token&response_mode=form_post&prompt=none&client_id=demo-lti13-client&redirect_uri=https%3A%2F%2Fevil.example%2F&login_hint=x&lti_message_hint=y&nonce=z",
    );
    expect(res?.status()).toBe(400);
    await expect(page.getByRole("alert")).toHaveText(
      "The tool could not be opened. Go back to the course and try again.",
    );
  },
);
