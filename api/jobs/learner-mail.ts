/**
 * E-mail the learner controls (issue 31 item 2, decision 042), as jobs on the background runner of
 * decision 021: the reinforcement questions that are due (spec 2.8), reminders of due dates in the next
 * 24 hours, the announcements of the learner's courses, and — for learners who chose it — all of these
 * in one daily digest at 08:00 in their time zone. Nothing of a kind goes to a learner who turned it off.
 *
 * Once per learner and item, however many nodes run the jobs: a reinforcement question is claimed by
 * setting its `sent_at` (`FOR UPDATE SKIP LOCKED`), every other item by inserting its row of
 * `mail_deliveries` (primary key learner, kind, item; `ON CONFLICT DO NOTHING RETURNING`), in the same
 * transaction that queues the message in the outbox (decision 036): a node that loses a race inserts
 * nothing and sends nothing, and a failed run leaves no claim behind. The outbox sends what is queued.
 *
 * Every message is in the learner's language (`users.locale`, else `users.browser_locale`), multipart text + HTML, with
 * RFC 8058 `List-Unsubscribe` / `List-Unsubscribe-Post` headers and a visible unsubscribe link, both
 * signed for the learner and the kind.
 */
import { and, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { reinforcementAnswerPath } from "../../domain/reinforcement";
import { digestDue, DUE_REMINDER_WINDOW_MS, type MailKind, type UnsubscribeKind } from "../../domain/mail-preferences";
import { ActivityKind, ActivityWorkflowState, ObjectiveState, ObjectiveWorkflowState } from "../../domain/vocabulary";
import type { Db, Tx } from "../db/client";
import {
  activities,
  activityParts,
  activityWorkflows,
  chatChannels,
  chatMessages,
  chatReadMarkers,
  learnerNotifications,
  mailDeliveries,
  mailPreferences,
  objectives,
  objectiveWorkflowAggregates as owa,
  objectiveWorkflows,
  reinforcementWorkflows,
  users,
} from "../db/schema";
import { filterToSql } from "../filter-sql";
import { STANDING } from "../queries/course-scopes";
import { enqueueMail } from "../mail/outbox";
import { layoutMail, mailTranslator, type MailSection } from "../mail/texts";
import { listUnsubscribeHeaders, unsubscribeUrl } from "../mail/preferences";

export interface LearnerMailOptions {
  appUrl: string;
  /** The key of the unsubscribe links (deps.mailLinkKey). */
  key: string;
}

/** Items one run takes of each kind (the rest waits for the next run, a minute later). */
const BATCH = 500;
/** Announcements older than this are not mailed (a learner who turns them on is not sent the past). */
const ANNOUNCEMENT_MAX_AGE_MS = 48 * 3600_000;
/** An announcement waits this long before it is mailed: its author may still edit or delete it. */
const ANNOUNCEMENT_SETTLE_MS = 10 * 60_000;
/** Delivery rows are kept this long, then deleted (their items are long past). */
const KEEP_DELIVERIES_MS = 60 * 24 * 3600_000;
const ANNOUNCEMENT_PREVIEW = 300;

/** Who a query is for: learners who get `kind` as it comes, or the given learners (a digest) with `kind` on. */
type Audience = { mode: "immediate" } | { mode: "digest"; userIds: string[] };

const PREF_COLUMN: Record<MailKind, string> = {
  reinforcement: "reinforcement",
  dueReminders: "due_reminders",
  announcements: "announcements",
  grades: "grades",
};

/** The audience as a condition on a user-id column (no row of preferences: every kind on, no digest). */
function audienceOf(kind: MailKind, audience: Audience, userColumn: SQL | AnyPgColumn): SQL {
  const column = sql.raw(`mp.${PREF_COLUMN[kind]}`);
  if (audience.mode === "immediate")
    return sql`not exists (select 1 from ${mailPreferences} mp where mp.user_id = ${userColumn} and (not ${column} or mp.daily_digest))`;
  return sql`${userColumn} in (${sql.join(
    audience.userIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  )}) and exists (select 1 from ${mailPreferences} mp where mp.user_id = ${userColumn} and ${column})`;
}

// ---------------------------------------------------------------------------------------------
// The items of each kind, claimed
// ---------------------------------------------------------------------------------------------

interface Question {
  id: string;
  userId: string;
  question: string;
  options: { id: string; text: string }[];
  courseName: string;
  moduleName: string;
}

/** Due, unanswered, unsent questions of the audience: claimed (sent_at set) and returned. */
async function claimQuestions(tx: Tx, now: Date, audience: Audience): Promise<Question[]> {
  const claimed = await tx.execute<{ id: string }>(sql`
    update ${reinforcementWorkflows} set sent_at = ${now}
    where id in (
      select rw.id from ${reinforcementWorkflows} rw
      where rw.sent_at is null and rw.answer is null and rw.due_at <= ${now}
        and ${audienceOf("reinforcement", audience, sql`rw.user_id`)}
      order by rw.due_at
      limit ${BATCH}
      for update skip locked
    )
    returning id`);
  const ids = claimed.rows.map((r) => r.id);
  if (ids.length === 0) return [];
  return tx
    .select({
      id: reinforcementWorkflows.id,
      userId: reinforcementWorkflows.userId,
      question: reinforcementWorkflows.question,
      options: reinforcementWorkflows.options,
      courseName: objectives.name,
      moduleName: activities.name,
    })
    .from(reinforcementWorkflows)
    .innerJoin(objectives, eq(objectives.id, reinforcementWorkflows.objectiveId))
    .innerJoin(activities, eq(activities.id, reinforcementWorkflows.activityId))
    .where(inArray(reinforcementWorkflows.id, ids))
    .orderBy(reinforcementWorkflows.dueAt);
}

interface DueItem {
  userId: string;
  key: string;
  due: Date;
  name: string;
  course: string | null;
  href: string;
}

/** An ISO date in a constraint (text) as a timestamp, null when it is not one (no cast error on garbage). */
const constraintDate = (field: string) =>
  sql`case when ${activityParts.constraint}->>${field} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+(Z|[+-][0-9]{2}:?[0-9]{2})$' then (${activityParts.constraint}->>${field})::timestamptz end`;

/**
 * Due dates in the next 24 hours the audience has not handed in: courses (their due date, while not
 * started or in progress) and activities of attempts in progress (their `due`, while not finished).
 */
async function dueCandidates(tx: Tx, now: Date, audience: Audience, appUrl: string): Promise<DueItem[]> {
  const until = new Date(now.getTime() + DUE_REMINDER_WINDOW_MS);
  const courseKey = sql<string>`'course:' || ${owa.id} || ':' || (extract(epoch from ${owa.dueDate}) * 1000)::bigint`;
  const courses = tx
    .select({
      userId: owa.userId,
      key: courseKey,
      due: owa.dueDate,
      name: objectives.name,
      objectiveId: objectives.id,
    })
    .from(owa)
    .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
    .where(
      and(
        sql`${owa.dueDate} > ${now} and ${owa.dueDate} <= ${until}`,
        filterToSql(STANDING),
        sql`${objectives.state} = ${sql.raw(String(ObjectiveState.ready))}`,
        // Not started, or in progress: a submitted or finished course is handed in.
        sql`(${owa.lastWorkflowState} = ${sql.raw(String(ObjectiveWorkflowState.inProgress))} or (${owa.lastWorkflowState} is null and ${owa.lastRecordId} is null))`,
        audienceOf("dueReminders", audience, owa.userId),
        sql`not exists (select 1 from ${mailDeliveries} d where d.user_id = ${owa.userId} and d.kind = 'dueReminder' and d.item_key = ${courseKey})`,
      ),
    )
    .limit(BATCH);
  const due = constraintDate("due");
  const activityKey = sql<string>`'activity:' || ${objectiveWorkflows.id} || ':' || ${activityParts.id} || ':' || (extract(epoch from ${due}) * 1000)::bigint`;
  const parts = tx
    .select({
      userId: objectiveWorkflows.userId,
      key: activityKey,
      due: sql<Date>`${due}`.mapWith(objectiveWorkflows.started),
      name: activities.name,
      course: objectives.name,
      objectiveId: objectives.id,
      partId: activityParts.id,
    })
    .from(objectiveWorkflows)
    .innerJoin(owa, eq(owa.lastWorkflowId, objectiveWorkflows.id))
    .innerJoin(objectives, eq(objectives.id, objectiveWorkflows.objectiveId))
    .innerJoin(activityParts, eq(activityParts.objectiveId, objectiveWorkflows.objectiveId))
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .leftJoin(
      activityWorkflows,
      and(
        eq(activityWorkflows.objectiveWorkflowId, objectiveWorkflows.id),
        eq(activityWorkflows.activityPartId, activityParts.id),
      ),
    )
    .where(
      and(
        sql`${objectiveWorkflows.state} = ${sql.raw(String(ObjectiveWorkflowState.inProgress))}`,
        sql`${activityParts.constraint} ? 'due'`,
        sql`${activities.kind} <> ${sql.raw(String(ActivityKind.composite))}`,
        sql`${activities.state} = ${sql.raw(String(ObjectiveState.ready))}`,
        sql`${due} > ${now} and ${due} <= ${until}`,
        sql`(${activityWorkflows.id} is null or ${activityWorkflows.state} = ${sql.raw(String(ActivityWorkflowState.inProgress))})`,
        audienceOf("dueReminders", audience, objectiveWorkflows.userId),
        sql`not exists (select 1 from ${mailDeliveries} d where d.user_id = ${objectiveWorkflows.userId} and d.kind = 'dueReminder' and d.item_key = ${activityKey})`,
      ),
    )
    .limit(BATCH);
  const [c, p] = await Promise.all([courses, parts]);
  return [
    ...c.map((r) => ({
      userId: r.userId,
      key: r.key,
      due: r.due!,
      name: r.name,
      course: null,
      href: `${appUrl}/learn/courses/${r.objectiveId}`,
    })),
    ...p.map((r) => ({
      userId: r.userId,
      key: r.key,
      due: new Date(r.due),
      name: r.name,
      course: r.course,
      href: `${appUrl}/learn/courses/${r.objectiveId}/view/content?activityPathId=${r.partId}`,
    })),
  ].sort((x, y) => x.due.getTime() - y.due.getTime());
}

interface Announcement {
  userId: string;
  key: string;
  body: string;
  course: string;
  href: string;
  created: Date;
}

/** New announcements (10 minutes to 48 hours old, not read, not deleted) of the audience's courses. */
async function announcementCandidates(tx: Tx, now: Date, audience: Audience, appUrl: string): Promise<Announcement[]> {
  const rows = await tx
    .select({
      userId: owa.userId,
      id: chatMessages.id,
      body: chatMessages.body,
      created: chatMessages.createdAt,
      course: objectives.name,
      objectiveId: objectives.id,
    })
    .from(chatMessages)
    .innerJoin(chatChannels, eq(chatChannels.id, chatMessages.channelId))
    .innerJoin(owa, eq(owa.objectiveId, chatChannels.objectiveId))
    .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
    .leftJoin(
      chatReadMarkers,
      and(eq(chatReadMarkers.userId, owa.userId), eq(chatReadMarkers.channelId, chatChannels.id)),
    )
    .where(
      and(
        eq(chatChannels.kind, "announcements"),
        sql`${chatMessages.deletedAt} is null`,
        sql`${chatMessages.createdAt} > ${new Date(now.getTime() - ANNOUNCEMENT_MAX_AGE_MS)}`,
        sql`${chatMessages.createdAt} <= ${new Date(now.getTime() - ANNOUNCEMENT_SETTLE_MS)}`,
        sql`${chatMessages.userId} <> ${owa.userId}`,
        sql`${chatMessages.seq} > coalesce(${chatReadMarkers.seq}, 0)`,
        filterToSql(STANDING),
        audienceOf("announcements", audience, owa.userId),
        sql`not exists (select 1 from ${mailDeliveries} d where d.user_id = ${owa.userId} and d.kind = 'announcement' and d.item_key = ${chatMessages.id}::text)`,
      ),
    )
    .orderBy(chatMessages.createdAt)
    .limit(BATCH);
  return rows.map((r) => ({
    userId: r.userId,
    key: r.id,
    body: r.body.length > ANNOUNCEMENT_PREVIEW ? `${r.body.slice(0, ANNOUNCEMENT_PREVIEW)}…` : r.body,
    course: r.course,
    href: `${appUrl}/learn/courses/${r.objectiveId}/view/notifications`,
    created: r.created,
  }));
}

interface GradedItem {
  userId: string;
  key: string;
  activity: string;
  course: string;
  score: number | null;
  maxScore: number | null;
  href: string;
}

/** Released grades (decision 058) the audience was not mailed yet, oldest first. */
async function gradedCandidates(tx: Tx, audience: Audience, appUrl: string): Promise<GradedItem[]> {
  const rows = await tx
    .select({
      userId: learnerNotifications.userId,
      id: learnerNotifications.id,
      activity: activities.name,
      course: objectives.name,
      objectiveId: learnerNotifications.objectiveId,
      partId: learnerNotifications.activityPartId,
      score: learnerNotifications.score,
      maxScore: learnerNotifications.maxScore,
    })
    .from(learnerNotifications)
    .innerJoin(objectives, eq(objectives.id, learnerNotifications.objectiveId))
    .innerJoin(activityParts, eq(activityParts.id, learnerNotifications.activityPartId))
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .where(
      and(
        eq(learnerNotifications.kind, "graded"),
        audienceOf("grades", audience, learnerNotifications.userId),
        sql`not exists (select 1 from ${mailDeliveries} d where d.user_id = ${learnerNotifications.userId} and d.kind = 'graded' and d.item_key = ${learnerNotifications.id}::text)`,
      ),
    )
    .orderBy(learnerNotifications.createdAt)
    .limit(BATCH);
  return rows.map((r) => ({
    userId: r.userId,
    key: r.id,
    activity: r.activity,
    course: r.course,
    score: r.score,
    maxScore: r.maxScore,
    href: `${appUrl}/learn/courses/${r.objectiveId}/hand-in/${r.partId}`,
  }));
}

/** Claims items by inserting their delivery rows; returns the keys this transaction got (per learner). */
async function claim(tx: Tx, kind: string, items: { userId: string; key: string }[], now: Date) {
  const got = new Set<string>();
  for (let i = 0; i < items.length; i += 1000) {
    const chunk = items.slice(i, i + 1000);
    const rows = await tx
      .insert(mailDeliveries)
      .values(chunk.map((item) => ({ userId: item.userId, kind, itemKey: item.key, sentAt: now })))
      .onConflictDoNothing()
      .returning({ userId: mailDeliveries.userId, itemKey: mailDeliveries.itemKey });
    for (const r of rows) got.add(`${r.userId}|${r.itemKey}`);
  }
  return <T extends { userId: string; key: string }>(list: T[]) => list.filter((x) => got.has(`${x.userId}|${x.key}`));
}

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

interface Recipient {
  id: string;
  email: string;
  firstName: string;
  timezone: string | null;
  locale: string;
}

async function recipients(tx: Tx, userIds: string[]): Promise<Map<string, Recipient>> {
  if (userIds.length === 0) return new Map();
  const rows = await tx
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      timezone: users.timezone,
      locale: users.locale,
      browserLocale: users.browserLocale,
    })
    .from(users)
    .where(inArray(users.id, [...new Set(userIds)]));
  // Her choice, else the language her browser asked for at her last sign-in.
  return new Map(rows.map(({ browserLocale, ...r }) => [r.id, { ...r, locale: r.locale ?? browserLocale ?? "en-US" }]));
}

function when(date: Date, r: Recipient, locale: string): string {
  try {
    return new Intl.DateTimeFormat(locale, {
      dateStyle: "medium",
      timeStyle: "short",
      timeZone: r.timezone ?? "UTC",
    }).format(date);
  } catch {
    return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(date);
  }
}

function sections(
  r: Recipient,
  t: (key: string, vars?: Record<string, string>) => string,
  locale: string,
  content: Content,
  appUrl: string,
): MailSection[] {
  const out: MailSection[] = [];
  for (const q of content.questions)
    out.push({
      heading: t("reinforcement.intro", { module: q.moduleName, course: q.courseName }),
      items: [
        { text: q.question },
        ...q.options.map((o) => ({ text: o.text, href: `${appUrl}${reinforcementAnswerPath(q.id, o.id)}` })),
      ],
    });
  if (content.due.length)
    out.push({
      heading: t("dueReminder.intro"),
      items: content.due.map((d) => ({
        text: d.course ? t("dueReminder.activity", { name: d.name, course: d.course }) : d.name,
        detail: t("dueReminder.due", { date: when(d.due, r, locale) }),
        href: d.href,
      })),
    });
  if (content.announcements.length)
    out.push({
      heading: t("announcements.intro"),
      items: content.announcements.map((a) => ({
        text: `${a.course}: ${a.body}`,
        detail: when(a.created, r, locale),
        href: a.href,
      })),
    });
  if (content.graded.length)
    out.push({
      heading: t("graded.intro"),
      items: content.graded.map((g) => ({
        text: t("dueReminder.activity", { name: g.activity, course: g.course }),
        ...(g.score !== null
          ? {
              detail:
                g.maxScore !== null
                  ? t("graded.scoreOf", { score: String(g.score), max: String(g.maxScore) })
                  : t("graded.score", { score: String(g.score) }),
            }
          : {}),
        href: g.href,
      })),
    });
  return out;
}

function message(
  r: Recipient,
  kind: UnsubscribeKind,
  subject: (t: (key: string, vars?: Record<string, string>) => string) => string,
  content: Content,
  options: LearnerMailOptions,
) {
  const { t, locale } = mailTranslator(r.locale);
  const unsubscribe = unsubscribeUrl(options.appUrl, options.key, r.id, kind);
  const closing = content.questions.length ? [t("reinforcement.hint")] : [];
  return layoutMail({
    locale,
    to: r.email,
    subject: subject(t),
    greeting: t("greeting", { name: r.firstName }),
    paragraphs: [],
    sections: sections(r, t, locale, content, options.appUrl),
    actions: [],
    closing,
    footer: {
      why: t(`footer.why.${kind}`),
      unsubscribe: { label: t(`footer.unsubscribe.${kind}`), href: unsubscribe },
      preferences: { label: t("footer.preferences"), href: `${options.appUrl}/learn/profile/email` },
    },
    headers: listUnsubscribeHeaders(unsubscribe),
  });
}

interface Content {
  questions: Question[];
  due: DueItem[];
  announcements: Announcement[];
  graded: GradedItem[];
}

const none: Content = { questions: [], due: [], announcements: [], graded: [] };

function byUser<T extends { userId: string }>(list: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of list) out.set(x.userId, [...(out.get(x.userId) ?? []), x]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The runs
// ---------------------------------------------------------------------------------------------

/** Questions due now, one e-mail each, to learners who get them as they come. */
async function sendQuestions(db: Db, now: Date, options: LearnerMailOptions): Promise<number> {
  return db.transaction(async (tx) => {
    const questions = await claimQuestions(tx, now, { mode: "immediate" });
    const people = await recipients(
      tx,
      questions.map((q) => q.userId),
    );
    let queued = 0;
    for (const q of questions) {
      const r = people.get(q.userId);
      if (!r) continue;
      const mail = message(
        r,
        "reinforcement",
        (t) => t("reinforcement.subject", { module: q.moduleName, course: q.courseName }),
        { ...none, questions: [q] },
        options,
      );
      await enqueueMail(tx, "reinforcement", mail);
      queued++;
    }
    return queued;
  });
}

/** Due dates of the next 24 hours, one e-mail per learner with all of theirs. */
async function sendDueReminders(db: Db, now: Date, options: LearnerMailOptions): Promise<number> {
  return db.transaction(async (tx) => {
    const candidates = await dueCandidates(tx, now, { mode: "immediate" }, options.appUrl);
    const claimed = (await claim(tx, "dueReminder", candidates, now))(candidates);
    const groups = byUser(claimed);
    const people = await recipients(tx, [...groups.keys()]);
    let queued = 0;
    for (const [userId, due] of groups) {
      const r = people.get(userId);
      if (!r) continue;
      await enqueueMail(
        tx,
        "dueReminder",
        message(r, "dueReminders", (t) => t("dueReminder.subject"), { ...none, due }, options),
      );
      queued++;
    }
    return queued;
  });
}

/** New announcements, one digest e-mail per learner with all of theirs since the last. */
async function sendAnnouncements(db: Db, now: Date, options: LearnerMailOptions): Promise<number> {
  return db.transaction(async (tx) => {
    const candidates = await announcementCandidates(tx, now, { mode: "immediate" }, options.appUrl);
    const claimed = (await claim(tx, "announcement", candidates, now))(candidates);
    const groups = byUser(claimed);
    const people = await recipients(tx, [...groups.keys()]);
    let queued = 0;
    for (const [userId, announcements] of groups) {
      const r = people.get(userId);
      if (!r) continue;
      await enqueueMail(
        tx,
        "announcements",
        message(r, "announcements", (t) => t("announcements.subject"), { ...none, announcements }, options),
      );
      queued++;
    }
    return queued;
  });
}

/** Released grades (decision 058), one e-mail per learner with all of hers since the last. */
async function sendGraded(db: Db, options: LearnerMailOptions, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const candidates = await gradedCandidates(tx, { mode: "immediate" }, options.appUrl);
    const claimed = (await claim(tx, "graded", candidates, now))(candidates);
    const groups = byUser(claimed);
    const people = await recipients(tx, [...groups.keys()]);
    let queued = 0;
    for (const [userId, graded] of groups) {
      const r = people.get(userId);
      if (!r) continue;
      await enqueueMail(
        tx,
        "graded",
        message(r, "grades", (t) => t("graded.subject"), { ...none, graded }, options),
      );
      queued++;
    }
    return queued;
  });
}

/** The daily digests whose hour has come: one e-mail per learner and day with every kind they have on. */
async function sendDigests(db: Db, now: Date, options: LearnerMailOptions): Promise<number> {
  return db.transaction(async (tx) => {
    const waiting = await tx
      .select({ userId: mailPreferences.userId, timezone: users.timezone })
      .from(mailPreferences)
      .innerJoin(users, eq(users.id, mailPreferences.userId))
      .where(
        and(
          sql`${mailPreferences.dailyDigest} and (${mailPreferences.reinforcement} or ${mailPreferences.dueReminders} or ${mailPreferences.announcements} or ${mailPreferences.grades})`,
          sql`not exists (select 1 from ${mailDeliveries} d where d.user_id = ${mailPreferences.userId} and d.kind = 'digest' and d.sent_at > ${new Date(now.getTime() - 20 * 3600_000)})`,
        ),
      )
      .limit(BATCH);
    const due = waiting.flatMap((w) => {
      const day = digestDue(now, w.timezone);
      return day ? [{ userId: w.userId, key: day }] : [];
    });
    if (due.length === 0) return 0;
    const mine = (await claim(tx, "digest", due, now))(due).map((d) => d.userId);
    if (mine.length === 0) return 0;
    const audience: Audience = { mode: "digest", userIds: mine };
    const questions = await claimQuestions(tx, now, audience);
    const dueItems = await dueCandidates(tx, now, audience, options.appUrl);
    const announcements = await announcementCandidates(tx, now, audience, options.appUrl);
    const claimedDue = (await claim(tx, "dueReminder", dueItems, now))(dueItems);
    const claimedAnnouncements = (await claim(tx, "announcement", announcements, now))(announcements);
    const graded = await gradedCandidates(tx, audience, options.appUrl);
    const claimedGraded = (await claim(tx, "graded", graded, now))(graded);
    const q = byUser(questions);
    const d = byUser(claimedDue);
    const a = byUser(claimedAnnouncements);
    const g = byUser(claimedGraded);
    const people = await recipients(tx, mine);
    let queued = 0;
    for (const userId of mine) {
      const content: Content = {
        questions: q.get(userId) ?? [],
        due: d.get(userId) ?? [],
        announcements: a.get(userId) ?? [],
        graded: g.get(userId) ?? [],
      };
      const r = people.get(userId);
      // Nothing today: no message (the day is still done).
      const count =
        content.questions.length + content.due.length + content.announcements.length + content.graded.length;
      if (!r || count === 0) continue;
      await enqueueMail(
        tx,
        "digest",
        message(r, "digest", (t) => t("digest.subject"), content, options),
      );
      queued++;
    }
    return queued;
  });
}

/** One run of the learner mail jobs; returns how many messages each queued (the outbox sends them). */
export async function runLearnerMail(db: Db, options: LearnerMailOptions, now = new Date()) {
  const reinforcement = await sendQuestions(db, now, options);
  const dueReminders = await sendDueReminders(db, now, options);
  const announcements = await sendAnnouncements(db, now, options);
  const graded = await sendGraded(db, options, now);
  const digests = await sendDigests(db, now, options);
  await db.delete(mailDeliveries).where(lt(mailDeliveries.sentAt, new Date(now.getTime() - KEEP_DELIVERIES_MS)));
  return { reinforcement, dueReminders, announcements, graded, digests };
}
