/**
 * Every route of app/routes.ts, with the demo data that reaches it — the walk of the overflow
 * test (phone-walk.spec.ts, `npm run overflow`), with axe at 390 and 1280 px. A route added to
 * app/routes.ts without a stop or a reason here fails `walkCoversEveryRoute`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { APIRequest, Browser, BrowserContext, Page } from "@playwright/test";
import routes from "../../app/routes";
import { createLearner, expect, login, type Learner } from "./fixtures";

export interface Stop {
  /** The route's id in app/routes.ts (its `id`, else its file without the extension). */
  route: string;
  /** What this stop shows, for the table. */
  label: string;
  url: string;
  /** Opened signed out (public pages, the provider's pages), else as the walk's learner. */
  visitor?: boolean;
}

/** Routes that answer no page of their own (files, JSON, streams, form targets), and why. */
export const NOT_PAGES: Record<string, string> = {
  "routes/config-ui.config-json": "JSON (spec 7.1's configuration)",
  "routes/learn.locales": "JSON (the browser's translations)",
  "routes/learn.browser-alert": "form target (dismisses the alert, then back)",
  "routes/learn.collect": "analytics beacon (JSON)",
  "routes/learn.files.$activityId": "a course file",
  "routes/learn.chat-files.$attachmentId": "a chat message's file",
  "routes/learn.courses.$id.hand-in.$partId.upload": "form target (the hand-in page's upload with progress, JSON)",
  "routes/learn.hand-in-files.$fileId": "a hand-in's file",
  "routes/learn.assessment-files.$fileId": "a file sent as a test's upload answer",
  "routes/learn.grades.export": "the grades as CSV",
  "routes/learn.scorm-runtime": "the SCORM player's commits (JSON)",
  "routes/learn.lti.launch": "LTI launch: an auto-posting form to the tool (lti.spec.ts)",
  "routes/learn.lti.authorize": "LTI authorization: an auto-posting form to the tool (lti.spec.ts)",
  "routes/learn.lti-tool-callback": "a frame's message to its parent window",
  "routes/learn.certificate.$number.download.$kind": "the certificate's PDF or image",
  "routes/learn.courses.$id.certificate.$number.download.$kind": "the certificate's PDF or image",
  "routes/learn.courses.$id.chat-events": "server-sent events",
  "routes/learn.courses.$id.tutor.stream": "server-sent events",
  "routes/learn.courses.$id.progress-events": "server-sent events (the course tab's live progress)",
  "routes/learn.manifest": "the web app manifest (JSON, issue 31)",
  "routes/learn.courses.$id.offline-copy": "what the service worker keeps of a course (JSON, issue 31)",
};

interface RouteEntry {
  id?: string;
  file: string;
  children?: RouteEntry[];
}
function routeIds(list: RouteEntry[]): string[] {
  return list.flatMap((r) => [r.id ?? r.file.replace(/\.tsx?$/, ""), ...routeIds(r.children ?? [])]);
}
/** Every route id of app/routes.ts but the layouts (which have no URL of their own). */
export const ROUTE_IDS = routeIds(routes as RouteEntry[]).filter(
  (id) => !["routes/learn.private", "routes/learn.course-pages"].includes(id),
);

/** The walk's learner: ada's courses, the onboarding course's chat, an Arabic course in progress. */
export const WALK_RECIPE = {
  like: "ada" as const,
  enrolments: [
    { course: "onboarding", selfEnrolled: true },
    {
      course: "ml-arabic",
      selfEnrolled: true,
      attempts: [{ state: "inProgress" as const, progress: 0.4, startedAgo: 3 }],
    },
  ],
};

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

async function href(page: Page, selector: ReturnType<Page["locator"]>): Promise<string> {
  const value = await selector.first().getAttribute("href");
  expect(value, "a link of the walk").toBeTruthy();
  return value!;
}

/** A course's id from its card on My courses. */
async function myCourse(page: Page, name: string): Promise<{ id: string; card: string }> {
  await page.goto(`/learn/courses?keyword=${encodeURIComponent(name.toLowerCase())}`);
  const card = page
    .locator(".card-grid > li.course-card")
    .filter({ has: page.getByRole("heading", { name, exact: true }) });
  const link = await href(page, card.getByRole("link"));
  const id = new RegExp(`^/learn/courses/(${UUID})`).exec(link)?.[1];
  expect(id, `course id of ${name}`).toBeTruthy();
  return { id: id!, card: link };
}

/** The content viewer's link to an activity, from the table of contents. */
async function activity(page: Page, courseId: string, name: string | RegExp): Promise<string> {
  await page.goto(`/learn/courses/${courseId}/view/content`);
  const toc = page.getByRole("navigation", { name: /Table of contents/ });
  return href(page, toc.getByRole("link", { name }));
}

/** The ids the stops' URLs need, found once per worker by `discoverWalk`. */
export interface WalkIds {
  sql: string;
  python: string;
  arabic: string;
  onboarding: string;
  /** A card's link of the form /courses/{id}/{accessId} (spec 4.11). */
  byAccess: string;
  certificateNumber: string;
  certificatePreview: string;
  review: string;
  lesson: string;
  pdf: string;
  team: string;
  /** The hand-in page of an assignment (ada's handed-in test plan, decision 048). */
  handIn: string;
  pair: string;
  lab: string;
  discussion: string;
  quiz: string;
  /** The QTI quiz's own page. */
  assessment: string;
  arabicLesson: string;
  proctoredPath: string;
  week: string;
  agenda: string;
  question: { id: string; correctAnswer: string };
}

/**
 * Signs the walk's learner in (a context with JavaScript, whatever the project) and finds the ids the
 * stops need; returns them with the session's cookies.
 */
export async function discoverWalk(
  browser: Browser,
  baseURL: string,
): Promise<{ learner: Learner; ids: WalkIds; cookies: Awaited<ReturnType<BrowserContext["cookies"]>> }> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: true });
  const learner = await createLearner(context.request, WALK_RECIPE);
  const page = await context.newPage();
  try {
    await login(page, learner);
    await expect(page.locator("details.user-menu")).toBeVisible();

    const sql = await myCourse(page, "SQL Fundamentals");
    const python = await myCourse(page, "Python for Data Analysis");
    const arabic = await myCourse(page, "مقدمة في تعلم الآلة");
    const onboarding = await myCourse(page, "Welcome to Northwind");
    const testing = await myCourse(page, "Testing Strategies: Unit, Integration and End-to-End");

    await page.goto("/learn/courses");
    const byAccess = (
      await page.locator(".card-grid a").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""))
    ).find((h) => new RegExp(`^/learn/courses/${UUID}/${UUID}`).test(h));

    // SQL Fundamentals: finished twice — certificates and a previous attempt to review.
    await page.goto(`/learn/courses/${sql.id}`);
    const certificates = page.getByRole("region", { name: "Certificates" });
    const certificatePreview = await href(page, certificates.locator("tbody tr").first().getByRole("link").first());
    const review = await href(page, page.locator(`a[href*="/workflow/"][href*="viewType=REVIEW"]`));

    const proctored = await activity(page, sql.id, /Final quiz/);
    const ids: WalkIds = {
      sql: sql.id,
      python: python.id,
      arabic: arabic.id,
      onboarding: onboarding.id,
      byAccess: byAccess ?? `/learn/courses/${python.id}/${python.id}`,
      certificateNumber: /certificate\/([^/]+)$/.exec(certificatePreview)![1],
      certificatePreview,
      review,
      lesson: await activity(page, python.id, "Reading CSV and Excel files"),
      pdf: await activity(page, python.id, /Course handbook \(PDF\)/),
      team: await activity(page, python.id, /Team assignment: review a chart together/),
      handIn: `/learn/courses/${testing.id}/hand-in/${
        new URL(await activity(page, testing.id, /Final assignment: a test plan/), baseURL).searchParams.get(
          "activityPathId",
        ) ?? ""
      }`,
      pair: await activity(page, python.id, /Pair exercise: explain a join/),
      lab: await activity(page, python.id, /Lab: plotting ride patterns/),
      discussion: await activity(page, python.id, /Discussion: share your first chart/),
      quiz: await activity(page, python.id, /Quiz: Python essentials/),
      arabicLesson: await activity(page, arabic.id, "الانحدار والتصنيف"),
      proctoredPath: new URL(proctored, baseURL).searchParams.get("activityPathId") ?? "",
      assessment: "",
      week: "",
      agenda: "",
      question: learner.reinforcement[0],
    };
    await page.goto(ids.quiz);
    ids.assessment = await href(page, page.locator(`a[href*="/assessment/"]`));
    await page.goto("/learn/calendar");
    const calendarLinks = await page
      .locator(`a[href^="/learn/calendar/"]`)
      .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    ids.week = calendarLinks.find((h) => h.includes("/week/")) ?? "/learn/calendar/week";
    ids.agenda = calendarLinks.find((h) => h.includes("/agenda")) ?? "/learn/calendar/agenda";
    return { learner, ids, cookies: await context.cookies() };
  } finally {
    await context.close();
  }
}

type Walk = Awaited<ReturnType<typeof discoverWalk>>;

/**
 * The walk's learner and ids, found once per test run: a worker that starts again after a failed test
 * reuses them while the server still accepts the session (a new server, a new database: found again).
 */
export async function cachedWalk(browser: Browser, request: APIRequest, baseURL: string): Promise<Walk> {
  const file = join(tmpdir(), `learner-walk-${new URL(baseURL).port}.json`);
  if (existsSync(file)) {
    const walk = JSON.parse(readFileSync(file, "utf8")) as Walk;
    const api = await request.newContext({ baseURL, storageState: { cookies: walk.cookies, origins: [] } });
    const res = await api.get(`/learn/courses/${walk.ids.python}`, { maxRedirects: 0 });
    await api.dispose();
    if (res.status() === 200) return walk;
  }
  const walk = await discoverWalk(browser, baseURL);
  writeFileSync(file, JSON.stringify(walk));
  return walk;
}

/** The walk: one stop (or more) per page route, with the demo data that reaches it. */
export const STOPS: (Omit<Stop, "url"> & { url: (ids: WalkIds) => string })[] = [
  {
    route: "routes/oidc.login",
    label: "sign-in (provider)",
    url: () => "/oidc/login?redirectUrl=%2Flearn",
    visitor: true,
  },
  {
    route: "routes/oidc.login",
    label: "sign-up (provider)",
    url: () => "/oidc/login?provider=signup&redirectUrl=%2Flearn",
    visitor: true,
  },
  { route: "routes/oidc.logout", label: "sign-out (GET)", url: () => "/oidc/logout", visitor: true },
  { route: "routes/platform", label: "platform app", url: () => "/platform" },
  {
    route: "routes/certificate.$number",
    label: "public certificate (short link)",
    url: (i) => `/certificate/${i.certificateNumber}`,
    visitor: true,
  },
  { route: "routes/learn.login-callback", label: "sign-in failed", url: () => "/learn/login-callback", visitor: true },
  { route: "routes/learn.language", label: "language (GET)", url: () => "/learn/language" },
  { route: "routes/learn.forbidden", label: "forbidden", url: () => "/learn/forbidden" },
  { route: "routes/learn.signed-out", label: "signed out", url: () => "/learn/signed-out", visitor: true },
  { route: "routes/learn.offline", label: "offline page", url: () => "/learn/offline" },
  { route: "routes/learn.catalog._index", label: "catalog", url: () => "/learn/catalog" },
  { route: "routes/learn.catalog.$id", label: "catalog course", url: (i) => `/learn/catalog/${i.sql}` },
  { route: "routes/learn.open-catalog._index", label: "open catalog", url: () => "/learn/open-catalog", visitor: true },
  {
    route: "routes/learn.open-catalog.$id.view.details",
    label: "open catalog course (Arabic)",
    url: (i) => `/learn/open-catalog/${i.arabic}/view/details`,
    visitor: true,
  },
  {
    route: "routes/learn.open-catalog.$",
    label: "open catalog router",
    url: (i) => `/learn/open-catalog/${i.onboarding}`,
    visitor: true,
  },
  {
    route: "routes/learn.certificate.$number",
    label: "public certificate",
    url: (i) => `/learn/certificate/${i.certificateNumber}`,
    visitor: true,
  },
  { route: "routes/learn._index", label: "dashboard", url: () => "/learn" },
  { route: "routes/learn.simulate-error", label: "error page (500)", url: () => "/learn/simulate-error" },
  { route: "routes/learn.bench-bare", label: "bench page (404 here)", url: () => "/learn/bench-bare" },
  { route: "routes/learn.courses._index", label: "my courses", url: () => "/learn/courses" },
  {
    route: "routes/learn.courses.redirect.$id",
    label: "course redirect",
    url: (i) => `/learn/courses/redirect/${i.python}`,
  },
  { route: "course-details", label: "course, finished (certificates)", url: (i) => `/learn/courses/${i.sql}` },
  { route: "course-details", label: "course, in progress", url: (i) => `/learn/courses/${i.python}` },
  { route: "course-details", label: "course in Arabic", url: (i) => `/learn/courses/${i.arabic}` },
  { route: "course-details-view", label: "about the course", url: (i) => `/learn/courses/${i.python}/view/details` },
  { route: "course-details-access", label: "course by access", url: (i) => i.byAccess },
  { route: "course-content", label: "lesson with code", url: (i) => i.lesson },
  { route: "course-content", label: "PDF", url: (i) => i.pdf },
  { route: "course-content", label: "team activity", url: (i) => i.team },
  { route: "course-content", label: "pair exercise", url: (i) => i.pair },
  { route: "course-content", label: "lab (score form)", url: (i) => i.lab },
  { route: "course-content", label: "discussion", url: (i) => i.discussion },
  { route: "course-content", label: "quiz (QTI)", url: (i) => i.quiz },
  { route: "routes/learn.courses.$id.assessment", label: "QTI quiz page", url: (i) => i.assessment },
  { route: "course-content", label: "Arabic lesson", url: (i) => i.arabicLesson },
  { route: "course-workflow-view", label: "review", url: (i) => i.review },
  {
    route: "routes/learn.courses.proctor.$objectiveId.$activityPathId",
    label: "proctored activity",
    url: (i) => `/learn/courses/proctor/${i.sql}/${i.proctoredPath}`,
  },
  {
    route: "routes/learn.courses.$id.view.notifications",
    label: "notifications (chat)",
    url: (i) => `/learn/courses/${i.onboarding}/view/notifications`,
  },
  { route: "routes/learn.courses.$id.tutor", label: "AI tutor", url: (i) => `/learn/courses/${i.python}/tutor` },
  {
    route: "routes/learn.courses.$id.view.$",
    label: "other view path",
    url: (i) => `/learn/courses/${i.python}/view/x`,
  },
  {
    route: "routes/learn.courses.$id.certificate.$number",
    label: "certificate preview",
    url: (i) => i.certificatePreview,
  },
  {
    route: "routes/learn.email-response-callback",
    label: "e-mail answer",
    url: (i) => `/learn/email-response-callback?answer=${i.question.correctAnswer}&workflowId=${i.question.id}`,
  },
  { route: "profile-personal", label: "profile", url: () => "/learn/profile" },
  { route: "routes/learn.feedback", label: "feedback", url: () => "/learn/feedback" },
  { route: "profile-time-zone", label: "time zone", url: () => "/learn/profile/time-zone" },
  { route: "routes/learn.profile.email", label: "e-mail preferences", url: () => "/learn/profile/email" },
  { route: "routes/learn.grades._index", label: "grades", url: () => "/learn/grades" },
  {
    route: "routes/learn.courses.$id.hand-in.$partId",
    label: "an assignment's hand-in",
    url: (i) => i.handIn,
  },
  // The walk's learner grades nothing: the queue is her 403 page, a hand-in or a test her 404 (hand-ins.spec.ts and
  // quiz-grading.spec.ts open them as a grader).
  { route: "routes/learn.grading._index", label: "grading queue (not a grader)", url: () => "/learn/grading" },
  {
    route: "routes/learn.grading.$handInId",
    label: "a hand-in to grade (not a grader)",
    url: () => "/learn/grading/00000000-0000-4000-8000-000000000000",
  },
  {
    route: "routes/learn.grading.test.$attemptId",
    label: "a test's answers to score (not a grader)",
    url: () => "/learn/grading/test/00000000-0000-4000-8000-000000000000",
  },
  { route: "routes/learn.grades.$id", label: "a course's grades", url: (i) => `/learn/grades/${i.python}` },
  {
    route: "routes/learn.unsubscribe",
    label: "unsubscribe (a link that is not valid)",
    url: () => "/learn/unsubscribe?u=00000000-0000-4000-8000-000000000000&k=reinforcement&t=x",
    visitor: true,
  },
  { route: "routes/learn.calendar.$", label: "calendar (month)", url: () => "/learn/calendar" },
  { route: "routes/learn.calendar.$", label: "calendar (week)", url: (i) => i.week },
  { route: "routes/learn.calendar.$", label: "calendar (agenda)", url: (i) => i.agenda },
  { route: "learn-not-found", label: "not found", url: () => "/learn/no-such-page" },
  { route: "not-found", label: "not found (outside /learn)", url: () => "/no-such-page", visitor: true },
];

/** The document's sideways overflow, and the innermost elements that stick out (for the failure message). */
export async function measureOverflow(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const width = root.clientWidth;
    const overflow = root.scrollWidth - width;
    const culprits: string[] = [];
    if (overflow > 0) {
      const out = (el: Element) => {
        // Inside a closed <details> nothing is laid out for the page (Chromium still measures it).
        if (el.closest("details:not([open]) > :not(summary)")) return false;
        const r = el.getBoundingClientRect();
        return r.width > 0 && (r.right > width + 0.5 || r.left < -0.5);
      };
      const name = (el: Element) =>
        `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${
          typeof el.className === "string" && el.className ? `.${el.className.trim().split(/\s+/).join(".")}` : ""
        }`;
      // The outermost elements that stick out (their parent does not): what pushes the page wider.
      for (const el of Array.from(document.body.querySelectorAll("*"))) {
        if (!out(el) || (el.parentElement && el.parentElement !== document.body && out(el.parentElement))) continue;
        const style = getComputedStyle(el);
        if (style.position === "fixed" || style.visibility === "hidden") continue;
        const r = el.getBoundingClientRect();
        const path = [el.parentElement, el]
          .filter((x): x is Element => !!x)
          .map(name)
          .join(" > ");
        culprits.push(`${path} [${Math.round(r.left)}…${Math.round(r.right)}]`);
        if (culprits.length >= 4) break;
      }
    }
    return { overflow, culprits };
  });
}

/** With JavaScript, waits until React has hydrated the page's main region (pages without React: at once). */
export async function settled(page: Page) {
  await page.waitForFunction(() => {
    if (!("__reactRouterRouteModules" in window)) return true;
    const main = document.querySelector("#main") ?? document.body;
    return Object.keys(main).some((k) => k.startsWith("__reactFiber"));
  });
}
