import { test as base, expect, type APIRequestContext, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import type { EnrolmentInput } from "../../demo/content/schemas";

/** The demo accounts (README): for the few tests about the demo itself. Nothing may change their data. */
export const DEMO = {
  ada: { email: "ada@example.com", name: "Ada Lovelace" },
  grace: { email: "grace@example.com", name: "Grace Hopper" },
  admin: { email: "admin@example.com", name: "Alan Admin" },
  rita: { email: "rita@example.com", name: "Rita Levi" },
} as const;
export type DemoUser = keyof typeof DEMO;
const DEMO_PASSWORD = "demo";

/** A learner made for one test (decision 014): its own account, nobody else's data. */
export interface Learner {
  id: string;
  email: string;
  password: string;
  /** First and last name, as the user menu shows them. */
  name: string;
  /** Reinforcement questions scheduled by the recipe (like ada: questions already due). */
  reinforcement: { id: string; options: { id: string; text: string }[]; correctAnswer: string }[];
}

/**
 * What a test's learner has: the account and enrolments of a demo user (`like`, as in
 * demo/data/learners/<user>.json), and/or enrolments of its own in the same format. `{}` is a
 * learner with no courses.
 */
export interface LearnerRecipe {
  like?: DemoUser;
  enrolments?: EnrolmentInput[];
  firstName?: string;
  lastName?: string;
  timezone?: string | null;
  /** Licensed features other than the demo tenant's: a tenant of its own, without courses. */
  features?: Record<string, boolean>;
  /** Another test learner whose team and mini-group this one joins (decision 026). */
  joinGroupsOf?: string;
}

/** Makes a learner through the server's test-support endpoint (only on the tests' server, from this machine). */
export async function createLearner(request: APIRequestContext, recipe: LearnerRecipe = {}): Promise<Learner> {
  // With an external LMS API (the external-mode tests), learners are made where the accounts live.
  const api = process.env.E2E_API_URL ?? "";
  const response = await request.post(`${api}/api/test-support/v1/learners`, { data: recipe });
  if (response.status() !== 201)
    throw new Error(
      `creating a learner (${JSON.stringify(recipe)}) failed: ${response.status()} ${await response.text()}`,
    );
  return (await response.json()) as Learner;
}

interface Fixtures {
  consoleErrors: string[];
  jsEnabled: boolean;
  /** The recipe of `learner`; set it for a file or a describe block with `test.use({ learnerRecipe: … })`. */
  learnerRecipe: LearnerRecipe;
  /** This test's own learner, made from `learnerRecipe` (not signed in: `login(page, learner)`). */
  learner: Learner;
  /** Makes more learners for this test (e.g. a second person). */
  newLearner: (recipe?: LearnerRecipe) => Promise<Learner>;
}

/** Every browser test fails on a console error (docs/style.md), except the ones a test expects. */
export const test = base.extend<Fixtures>({
  jsEnabled: async ({ javaScriptEnabled }, use) => use(javaScriptEnabled !== false),
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() !== "error") return;
        const text = msg.text();
        // Error pages are expected to log their HTTP status as a failed resource load.
        if (
          /Failed to load resource: the server responded with a status of (400|401|403|404|409|410|413|422|429|500)/.test(
            text,
          )
        )
          return;
        // A test that takes the browser offline (context.setOffline) expects its requests to fail.
        if (/Failed to load resource: net::ERR_INTERNET_DISCONNECTED/.test(text)) return;
        errors.push(text);
      });
      page.on("pageerror", (err) => errors.push(String(err)));
      await use(errors);
      expect(errors, "console errors").toEqual([]);
    },
    { auto: true },
  ],
  learnerRecipe: [{}, { option: true }],
  newLearner: async ({ request }, use) => use((recipe) => createLearner(request, recipe)),
  learner: async ({ newLearner, learnerRecipe }, use) => use(await newLearner(learnerRecipe)),
});

export { expect };

/** Signs in through the embedded provider's form, as a person would: a test's learner, or a demo account. */
export async function login(page: Page, who: Learner | DemoUser, goto = "/learn") {
  const { email, password } = typeof who === "string" ? { email: DEMO[who].email, password: DEMO_PASSWORD } : who;
  await page.goto(goto);
  await expect(page.getByRole("heading", { name: /sign in/i })).toBeVisible();
  await page.getByLabel(/e-mail/i).fill(email);
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole("button", { name: /sign in/i }).click();
}

/**
 * Signs in as `login` does, but over HTTP in the page's own context (the browser's cookies), then opens
 * `goto` in the page: for a test that is not about signing in (decision 060: 0.3–0.6 s less than the
 * provider's form). The browser opens the page the sign-in returns to, so its flash toasts are the page's.
 */
export async function openSignedIn(page: Page, who: Learner | DemoUser, goto = "/learn") {
  const { email, password } = typeof who === "string" ? { email: DEMO[who].email, password: DEMO_PASSWORD } : who;
  const request = page.context().request;
  const form = await request.get(goto);
  const action = /<form method="post" action="([^"]+)"/.exec(await form.text())?.[1]?.replaceAll("&amp;", "&");
  expect(action, `the provider's sign-in form, from ${goto}`).toBeTruthy();
  let res = await request.post(new URL(action!, form.url()).href, { form: { email, password }, maxRedirects: 0 });
  let landing: string | null = null;
  for (let i = 0; i < 10 && res.status() >= 300 && res.status() < 400; i++) {
    const next = new URL(res.headers()["location"], res.url());
    // The provider's and the app's sign-in steps are followed here; the page they return to, in the page.
    if (!/^\/(idp|oidc)\/|^\/learn\/login-callback/.test(next.pathname)) {
      landing = next.href;
      break;
    }
    res = await request.get(next.href, { maxRedirects: 0 });
  }
  expect(landing, `the sign-in of ${email} returns to the app (${res.status()} at ${res.url()})`).toBeTruthy();
  await page.goto(landing!);
}

/** Chooses the app's language as its language switch does: the `lng` cookie (a React Router cookie, base64 JSON). */
export async function chooseLanguage(page: Page, baseURL: string, lng: string) {
  const value = encodeURIComponent(Buffer.from(JSON.stringify(lng)).toString("base64"));
  await page.context().addCookies([{ name: "lng", value, url: baseURL }]);
}

/** Proves a page runs without JavaScript: React Router's globals are absent. */
export async function expectNoReact(page: Page) {
  const hydrated = await page.evaluate(() => "__reactRouterRouteModules" in window);
  expect(hydrated).toBe(false);
}

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** Serious and critical findings of axe on a page, as "rule: help (targets)". */
export async function seriousFindings(page: Page): Promise<string[]> {
  // axe's default run goes frame by frame and finishes in a blank page it opens: it reaches frames of
  // other origins (the content origin's SCORM launcher, an LTI tool). A page whose frames are all of its
  // own origin gets the same checks from one `axe.run` in the page ("legacy mode"), in about half the
  // time (0.9–1.0 → 0.5–0.67 s a page here; the walk alone runs axe four times per route and project).
  const origin = new URL(page.url()).origin;
  const onlyOwnFrames = page
    .frames()
    .slice(1)
    .every((frame) => URL.canParse(frame.url()) && new URL(frame.url()).origin === origin);
  const results = await new AxeBuilder({ page }).setLegacyMode(onlyOwnFrames).withTags(AXE_TAGS).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/** The React Router cookie of a language, as `chooseLanguage` writes it. */
const lngCookieValue = (lng: string) => encodeURIComponent(Buffer.from(JSON.stringify(lng)).toString("base64"));

/**
 * axe on the page as the test has it. axe-core needs script to run: in the no-JavaScript project the
 * page is opened in a script-enabled context with the same cookies whose own scripts are blocked
 * (without hydration it is the same markup). Every route is also checked at 390 px and on a desktop,
 * in English and in Arabic, by the walk (phone-walk.spec.ts, issue 25 item 7; decision 060 says which
 * combinations); `{ variants: true }` checks four variants of this page's state (a state the walk does
 * not reach).
 */
export async function expectAccessible(page: Page, options: { variants?: boolean } = { variants: false }) {
  const jsOff = base.info().project.use.javaScriptEnabled === false;
  const browser = page.context().browser()!;
  const url = page.url();
  const cookies = await page.context().cookies();
  const findings: string[] = [];
  const check = async (viewport: { width: number; height: number } | null, lng: string | null) => {
    const ctx = await browser.newContext({ javaScriptEnabled: true, viewport: viewport ?? page.viewportSize() });
    try {
      await ctx.addCookies(lng ? cookies.filter((c) => c.name !== "lng") : cookies);
      if (lng) await ctx.addCookies([{ name: "lng", value: lngCookieValue(lng), url }]);
      const target = await ctx.newPage();
      if (jsOff) await target.route("**/*.js", (route) => route.abort());
      await target.goto(url);
      const label = `${viewport ? `${viewport.width} px` : "as tested"}${lng ? `, ${lng}` : ""}`;
      findings.push(...(await seriousFindings(target)).map((f) => `[${label}] ${f}`));
    } finally {
      await ctx.close();
    }
  };
  if (jsOff) await check(null, null);
  else findings.push(...(await seriousFindings(page)));
  // The other widths and languages of this page state, when asked: in the JavaScript project.
  if (options.variants === true && !jsOff) {
    // Three more pages to open and check: time of their own, so a test near its limit is not cut short.
    base.info().setTimeout(base.info().timeout + 45_000);
    const current = (await page.locator("html").getAttribute("lang")) ?? "en-US";
    const other = current === "ar" ? "en-US" : "ar";
    const phone = { width: 390, height: 844 };
    const desktop = { width: 1280, height: 800 };
    const onPhone = (page.viewportSize()?.width ?? 1280) <= 500;
    for (const [viewport, lng] of [
      [onPhone ? desktop : phone, current],
      [phone, other],
      [desktop, other],
    ] as const)
      await check(viewport, lng);
  }
  expect(findings).toEqual([]);
}

/** A catalog course's id, found by its name through the catalog search. */
export async function courseIdByName(page: Page, name: string): Promise<string> {
  await page.goto(`/learn/catalog?keyword=${encodeURIComponent(name.toLowerCase())}`);
  const href = await page.getByRole("link", { name, exact: true }).first().getAttribute("href");
  const id = /\/learn\/catalog\/([0-9a-f-]{36})/.exec(href ?? "")?.[1];
  expect(id, `catalog link of ${name}`).toBeTruthy();
  return id!;
}

/**
 * Opens `count` plain activities in the table of contents' order, and finishes each as its completion
 * rule asks: a text is done by opening it; one marked by hand gets "Mark as done" (after "Start activity"
 * for a hand-in).
 */
export async function finishActivities(page: Page, count: number) {
  const toc = page.getByRole("navigation", { name: "Table of contents" });
  for (let i = 0; i < count; i++) {
    const item = toc
      .getByRole("link")
      .filter({ hasText: /Not started|In progress/ })
      .filter({ hasNotText: /Module/ })
      .first();
    const name = (await item.locator(".toc__name").textContent()) ?? "";
    const wasStarted = (await item.textContent())?.includes("In progress");
    await item.click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    const start = page.getByRole("button", { name: "Start activity" });
    const done = page.getByRole("button", { name: "Mark as done" });
    if (!wasStarted && (await start.count()) > 0) {
      await start.click();
      await expect(done).toBeVisible();
    }
    if ((await done.count()) > 0) await done.click();
    await expect(done).toHaveCount(0);
    await expect(page.locator(".activity-panel__meta").first()).not.toContainText(/Not started|In progress/);
  }
}

/**
 * The newest e-mail of `kind` to an address, once it was sent (the outbox is sent at once, in
 * the background; the test support reads what was sent).
 */
export async function mailTo(
  request: APIRequestContext,
  to: string,
  kind: string,
): Promise<{ kind: string; subject: string; text: string }> {
  let found: { kind: string; subject: string; text: string; sentAt: string | null } | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/test-support/v1/mail?to=${encodeURIComponent(to)}`);
        const body = (await res.json()) as {
          data: { kind: string; subject: string; text: string; sentAt: string | null }[];
        };
        found = body.data.find((m) => m.kind === kind);
        return found?.sentAt ?? null;
      },
      { timeout: 15_000, message: `an e-mail (${kind}) to ${to}` },
    )
    .not.toBeNull();
  return found!;
}
