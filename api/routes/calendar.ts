import { randomBytes } from "node:crypto";
import { Hono, type Context } from "hono";
import {
  checkCalendarRange,
  dueSoonAndOverdue,
  isOverdue,
  overlaps,
  RECENT_RESULT_DAYS,
  sortItems,
  upcomingEvents,
} from "../../domain/calendar";
import {
  calendarFeedCommandSchema,
  calendarFeedFilePathSchema,
  calendarFeedSchema,
  calendarItemListSchema,
  calendarRangeQuerySchema,
  dashboardSchema,
  type CalendarFeed,
  type CalendarItemList,
  type Dashboard,
} from "../../domain/contract/calendar";
import { isCertificateExpired } from "../../domain/certificates";
import { DEFAULT_LOCALE, isSupportedLocale } from "../../domain/locales";
import { ActivityWorkflowState } from "../../domain/vocabulary";
import type { ApiEnv } from "../context";
import { requireFeature, requireUser } from "../auth";
import { limitWrites } from "../limit-writes";
import { runCommand } from "../commands/run";
import {
  createCalendarFeed,
  deleteCalendarFeed,
  feedPath,
  feedToken,
  TOKEN_PATTERN,
  tokenHash,
} from "../commands/calendar-feeds";
import { ApiError, message, notFound } from "../errors";
import { activityItemsOf, courseItemsOf, reinforcementItemsOf, toDashboardCourse } from "../mappers/calendar";
import { gradeMapOf, toRecord } from "../mappers/courses";
import { publishedHash, toICalendar } from "../mappers/ical";
import {
  courseDatesOf,
  datedTreesOf,
  feedByTokenHash,
  feedItemStates,
  feedOfUser,
  saveFeedItemStates,
} from "../queries/calendar";
import {
  continueLearning,
  dashboardSummary,
  mandatoryNotStarted,
  recentResults,
  waitingForResults,
} from "../queries/dashboard";
import { questionsToAnswer, reinforcementDatesOf } from "../queries/reinforcement";
import { createLimiter, tooManyRequests } from "../rate-limit";
import { validJson, validParams, validQuery } from "../validate";
import { operations } from "../openapi";

const op = operations("calendar");

const DAY_MS = 86_400_000;
/** How many of each dashboard section the page shows; the rest is behind the section's link. */
const SECTION_SIZE = 5;
const DUE_SECTION_SIZE = 8;

/** The feed key of this API: the server's (decision 022), or one for the life of the process. */
const processKey = randomBytes(32).toString("base64url");
const feedKey = (c: Context<ApiEnv>) => c.var.deps.calendarFeedKey ?? processKey;

/** The learner's language (the app sends it as Accept-Language): the feed's texts are in it. */
function requestLocale(c: Context<ApiEnv>): string {
  const first = (c.req.header("accept-language") ?? "").split(",")[0]?.split(";")[0]?.trim() ?? "";
  return isSupportedLocale(first) ? first : DEFAULT_LOCALE;
}

export function calendarRoutes() {
  const r = new Hono<ApiEnv>();
  // A calendar program polls a feed every few minutes to every few hours; this leaves room for a
  // person clicking as well, and stops a runaway client (per link, counted in this process).
  const feedLimit = createLimiter(null, { name: "calendar-feed", points: 60, durationSeconds: 600, store: "local" });

  r.use("/users/me/calendar-items", requireUser);
  r.use("/users/me/calendar-feed", requireUser);
  r.use("/users/me/dashboard", requireUser);
  r.use("/create-calendar-feeds", requireUser);
  r.use("/delete-calendar-feeds", requireUser);
  for (const path of [
    "/users/me/calendar-items",
    "/users/me/calendar-feed",
    "/create-calendar-feeds",
    "/delete-calendar-feeds",
  ])
    r.use(path, requireFeature("calendar"));
  // Per-user write limits (decision 018).
  r.use("/create-calendar-feeds", limitWrites("profile"));
  r.use("/delete-calendar-feeds", limitWrites("profile"));

  // The learner's calendar items in [from, to), at most 100 days; three statements (the
  // courses' dates, the dated course trees, the reinforcement questions due).
  r.get(
    "/users/me/calendar-items",
    op({
      feature: "calendar",
      summary:
        "The learner's calendar items overlapping [from, to): course due, availability and grade-reveal dates; activity constraint dates; events; reinforcement questions due",
      description:
        "from, to: ISO 8601 instants with an offset, at most 100 days apart, else 400. Each item: stable id, kind, start, end (events), allDay, course, activity, location, url, lock (spec 4.12 reason), done, question (reinforcement questions: text, options, the learner's answer; never the correct one)",
      response: calendarItemListSchema,
      notShown: true,
    }),
    validQuery(calendarRangeQuerySchema),
    async (c) => {
      const q = c.req.valid("query");
      const range = checkCalendarRange(new Date(q.from), new Date(q.to));
      if (!range.ok) {
        throw new ApiError(400, {
          [range.error === "order" ? "to" : ""]: [
            range.error === "order"
              ? message("rangeOrder", "to must be later than from.")
              : message("rangeTooLong", "A range is at most 100 days.", { days: 100 }),
          ],
        });
      }
      const { from, to } = range;
      const userId = c.var.user.id;
      const [courses, trees, questions] = await Promise.all([
        courseDatesOf(c.var.db, userId, { from, to }),
        datedTreesOf(c.var.db, userId),
        reinforcementDatesOf(c.var.db, userId, { from, to }),
      ]);
      const items = [
        ...courseItemsOf(courses),
        ...activityItemsOf(trees, c.var.now),
        ...reinforcementItemsOf(questions),
      ].filter((i) => overlaps(i, from, to));
      return c.json({
        from: from.toISOString(),
        to: to.toISOString(),
        data: sortItems(items),
      } satisfies CalendarItemList);
    },
  );

  // Every section of the dashboard in eight statements, whatever the number of enrolments
  // (the eighth, issue 26: the reinforcement questions waiting for an answer).
  r.get(
    "/users/me/dashboard",
    op({
      summary:
        "The learner dashboard: counts and progress, continue learning, due soon and overdue (14 days), mandatory not started, waiting for results, results of the last 30 days with certificates (reveal rules of 4.7 applied), events of the next 7 days, reinforcement questions waiting for an answer",
      response: dashboardSchema,
      notShown: true,
    }),
    async (c) => {
      const db = c.var.db;
      const userId = c.var.user.id;
      const now = c.var.now;
      const [summary, cont, mandatory, waiting, results, dueCourses, trees, questions] = await Promise.all([
        dashboardSummary(db, userId),
        continueLearning(db, userId, SECTION_SIZE),
        mandatoryNotStarted(db, userId, SECTION_SIZE),
        waitingForResults(db, userId, SECTION_SIZE),
        recentResults(db, userId, new Date(now.getTime() - RECENT_RESULT_DAYS * DAY_MS), SECTION_SIZE),
        courseDatesOf(db, userId, { dueBefore: new Date(now.getTime() + 14 * DAY_MS) }),
        datedTreesOf(db, userId),
        questionsToAnswer(db, userId, now, SECTION_SIZE),
      ]);
      const activityItems = activityItemsOf(trees, now);
      const due = dueSoonAndOverdue(
        [...courseItemsOf(dueCourses).filter((i) => i.kind === "courseDue"), ...activityItems],
        now,
      );
      const overdue = due.filter((i) => isOverdue(i, now)).length;
      const events = upcomingEvents(activityItems, now);
      const gradeMap = gradeMapOf(results.map((row) => row.g));
      const body: Dashboard = {
        summary: { ...summary, overdue, dueSoon: due.length - overdue },
        continueLearning: {
          total: cont[0]?.total ?? 0,
          data: cont.map((row) => toDashboardCourse(row, row.lastPartState === ActivityWorkflowState.inProgress)),
        },
        dueSoon: { total: due.length, data: due.slice(0, DUE_SECTION_SIZE) },
        mandatoryNotStarted: { total: mandatory[0]?.total ?? 0, data: mandatory.map((row) => toDashboardCourse(row)) },
        waitingForResults: { total: waiting[0]?.total ?? 0, data: waiting.map((row) => toDashboardCourse(row)) },
        recentResults: {
          total: results[0]?.total ?? 0,
          data: results.map((row) => {
            // Spec 4.7: the same reveal rule as every other read of a record — nothing hidden leaks.
            const rec = toRecord(
              row.r,
              { gradeRevealPolicy: row.gradeRevealPolicy, gradeRevealDate: row.gradeRevealDate },
              row.workflowState as never,
              gradeMap,
              now,
            )!;
            return {
              course: { id: row.objectiveId, name: row.name, code: row.code },
              finished: rec.finished ?? now.toISOString(),
              passed: rec.passed,
              resultsHidden: rec.resultsHidden,
              score: rec.score,
              maxScore: rec.maxScore,
              normalizedScore: rec.normalizedScore,
              grade: rec.grade ? { name: rec.grade.name, color: rec.grade.color } : null,
              certificate:
                row.certificateNumber && !rec.resultsHidden
                  ? { number: row.certificateNumber, expired: isCertificateExpired(row.certificateExpires, now) }
                  : null,
            };
          }),
        },
        upcomingEvents: { total: events.length, data: events.slice(0, SECTION_SIZE) },
        questionsToAnswer: { total: questions[0]?.total ?? 0, data: reinforcementItemsOf(questions) },
      };
      return c.json(body);
    },
  );

  // The learner's feed link (shown on the calendar page), or none.
  r.get(
    "/users/me/calendar-feed",
    op({
      feature: "calendar",
      summary: "The learner's personal calendar feed link (a path under this API's origin), or null",
      response: calendarFeedSchema,
      notShown: true,
    }),
    async (c) => {
      const row = await feedOfUser(c.var.db, c.var.user.id);
      if (!row) return c.json({ feed: null } satisfies CalendarFeed);
      const token = feedToken(feedKey(c), row.userId, row.nonce);
      // A changed server key makes the link unshowable: say there is none, so the page offers a new one.
      if (tokenHash(token) !== row.tokenHash) return c.json({ feed: null } satisfies CalendarFeed);
      return c.json({ feed: { path: feedPath(token), created: row.created.toISOString() } } satisfies CalendarFeed);
    },
  );

  r.post(
    "/create-calendar-feeds",
    op({
      feature: "calendar",
      summary: "A new personal calendar feed link; the old one stops working (Prefer: respond-sync)",
      command: true,
      notShown: true,
    }),
    validJson(calendarFeedCommandSchema),
    async (c) => {
      const body = c.req.valid("json");
      const user = c.var.user;
      const key = feedKey(c);
      const locale = requestLocale(c);
      const now = c.var.now;
      return runCommand(c, { id: body.id, type: "create-calendar-feed", body: {} }, (tx) =>
        createCalendarFeed(tx, { userId: user.id, key, locale, now }),
      );
    },
  );

  r.post(
    "/delete-calendar-feeds",
    op({
      feature: "calendar",
      summary: "Remove the personal calendar feed link (Prefer: respond-sync)",
      command: true,
      notShown: true,
    }),
    validJson(calendarFeedCommandSchema),
    async (c) => {
      const body = c.req.valid("json");
      const user = c.var.user;
      return runCommand(c, { id: body.id, type: "delete-calendar-feed", body: {} }, (tx) =>
        deleteCalendarFeed(tx, user.id),
      );
    },
  );

  // The feed itself (RFC 5545): the secret link is the only credential; no cookie, no bearer token.
  r.get(
    "/public/calendar-feeds/:file",
    op({
      summary:
        "A learner's calendar as iCalendar (RFC 5545) by the secret token of their link ({file} is <token>.ics); no sign-in, no cookie. ETag and If-None-Match (304); 404 for an unknown or replaced link; 429 when asked too often",
      auth: "none",
      answer: { type: "text/calendar", description: "The calendar (304 when If-None-Match names its ETag)" },
      errors: { 429: "Asked too often for this link" },
      notShown: true,
    }),
    validParams(calendarFeedFilePathSchema),
    async (c) => {
      const { file } = c.req.valid("param");
      const token = file.endsWith(".ics") ? file.slice(0, -4) : file;
      if (!TOKEN_PATTERN.test(token)) throw notFound("calendar feed");
      const hash = tokenHash(token);
      const allowed = await feedLimit.consume(hash);
      if (!allowed.ok) tooManyRequests(c, allowed.retryAfterSeconds);
      const db = c.var.db;
      const feed = await feedByTokenHash(db, hash);
      if (!feed) throw notFound("calendar feed");
      const now = c.var.now;
      const [courses, trees, questions, states] = await Promise.all([
        courseDatesOf(db, feed.userId, null),
        datedTreesOf(db, feed.userId),
        reinforcementDatesOf(db, feed.userId, null),
        feedItemStates(db, feed.userId),
      ]);
      const items = sortItems([
        ...courseItemsOf(courses),
        ...activityItemsOf(trees, now),
        ...reinforcementItemsOf(questions),
      ]);
      const known = new Map(states.map((s) => [s.itemId, s]));
      const hashes = items.map((i) => publishedHash(i));
      const changed = items
        .map((i, n) => ({ itemId: i.id, hash: hashes[n] }))
        .filter((x) => known.get(x.itemId)?.hash !== x.hash);
      await saveFeedItemStates(db, feed.userId, changed, now);
      const url = new URL(c.req.url);
      const doc = toICalendar(
        items.map((item, n) => {
          const before = known.get(item.id);
          const same = before && before.hash === hashes[n];
          return {
            item,
            sequence: same ? before.sequence : before ? before.sequence + 1 : 0,
            changed: same ? before.changed : now,
          };
        }),
        { locale: feed.locale, origin: url.origin, host: url.hostname },
      );
      c.header("ETag", doc.etag);
      c.header("Content-Disposition", 'inline; filename="calendar.ics"');
      // The link is the credential: no shared cache may keep it; the learner's own client may revalidate.
      c.header("Cache-Control", "private, no-cache");
      if (noneMatchHolds(c.req.header("if-none-match"), doc.etag)) return c.body(null, 304);
      return c.body(doc.body, 200, { "Content-Type": "text/calendar; charset=utf-8" });
    },
  );

  return r;
}

/**
 * RFC 9110 §13.1.2: If-None-Match compares weakly (`W/"x"` matches `"x"`), and `*` matches any current
 * representation — the answer is then 304.
 */
function noneMatchHolds(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => opaque(tag) === opaque(etag));
}
