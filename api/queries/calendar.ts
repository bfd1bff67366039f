// Queries: reads and writes the handlers share, grouped by resource. This one: the dated things of a
// learner's courses (decision 022) — the courses' own dates and their activities' constraint
// dates and events — each in one statement, whatever the number of enrolments.
import { and, asc, eq, gte, isNotNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { ActivityKind } from "../../domain/vocabulary";
import type { Db } from "../db/client";
import {
  activities,
  activityParts,
  activityWorkflows,
  calendarFeedItems,
  calendarFeeds,
  objectives,
  objectiveWorkflowAggregates as owa,
} from "../db/schema";
import { filterToSql } from "../filter-sql";
import { STANDING } from "./course-scopes";

/** The constraint fields that carry dates (spec 3 'Activity constraint'). */
const DATE_FIELDS = sql.raw(
  `array['startFrom','startUntil','accessibleUntil','gracePeriodUntil','due','resultsDisclosureFrom','revealResultsFrom']`,
);

const courseDateColumns = {
  aggregateId: owa.id,
  objectiveId: owa.objectiveId,
  name: objectives.name,
  code: objectives.code,
  isMandatory: owa.isMandatory,
  dueDate: owa.dueDate,
  availabilityDate: owa.availabilityDate,
  availabilityEndDate: owa.availabilityEndDate,
  gradeRevealPolicy: owa.gradeRevealPolicy,
  gradeRevealDate: owa.gradeRevealDate,
  lastWorkflowState: owa.lastWorkflowState,
  lastRecordId: owa.lastRecordId,
};

/**
 * The learner's courses (My courses' standing conditions) with a date of their own: all of them, those
 * with a date in [from, to), or those due before `dueBefore`.
 */
export async function courseDatesOf(
  db: Db,
  userId: string,
  window: { from: Date; to: Date } | { dueBefore: Date } | null,
) {
  const inRange = (column: AnyPgColumn, from: Date, to: Date) => and(gte(column, from), lt(column, to));
  let dated: SQL | undefined;
  if (window && "dueBefore" in window) dated = and(isNotNull(owa.dueDate), lt(owa.dueDate, window.dueBefore));
  else if (window)
    dated = or(
      inRange(owa.dueDate, window.from, window.to),
      inRange(owa.availabilityDate, window.from, window.to),
      inRange(owa.availabilityEndDate, window.from, window.to),
      and(eq(owa.gradeRevealPolicy, "afterDate"), inRange(owa.gradeRevealDate, window.from, window.to)),
    );
  else
    dated = or(
      isNotNull(owa.dueDate),
      isNotNull(owa.availabilityDate),
      isNotNull(owa.availabilityEndDate),
      isNotNull(owa.gradeRevealDate),
    );
  return db
    .select(courseDateColumns)
    .from(owa)
    .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
    .where(and(eq(owa.userId, userId), filterToSql(STANDING), dated));
}
export type CourseDateRow = Awaited<ReturnType<typeof courseDatesOf>>[number];

/**
 * Every part of the learner's courses that have a dated activity or an event, with the current
 * attempt's activity workflow: the course trees the calendar reads its activity items from (a module's
 * dates apply to what it holds). Text and file contents stay in the table; only events' come along.
 */
export async function datedTreesOf(db: Db, userId: string) {
  return db
    .select({
      objectiveId: owa.objectiveId,
      name: objectives.name,
      code: objectives.code,
      isMandatory: owa.isMandatory,
      part: activityParts,
      activity: {
        id: activities.id,
        tenantId: activities.tenantId,
        name: activities.name,
        code: activities.code,
        kind: activities.kind,
        contentType: activities.contentType,
        type: activities.type,
        state: activities.state,
        proctored: activities.proctored,
        duration: activities.duration,
        maxScore: activities.maxScore,
        supportReview: activities.supportReview,
      },
      event: sql<unknown>`case when ${activities.kind} = ${ActivityKind.event} then ${activities.content} end`,
      aw: activityWorkflows,
    })
    .from(owa)
    .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
    .innerJoin(activityParts, eq(activityParts.objectiveId, owa.objectiveId))
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .leftJoin(
      activityWorkflows,
      and(
        eq(activityWorkflows.objectiveWorkflowId, owa.lastWorkflowId),
        eq(activityWorkflows.activityPartId, activityParts.id),
      ),
    )
    .where(
      and(
        eq(owa.userId, userId),
        filterToSql(STANDING),
        sql`exists (select 1 from ${activityParts} p2 inner join ${activities} a2 on a2.id = p2.activity_id
          where p2.objective_id = ${owa.objectiveId}
            and (jsonb_exists_any(p2."constraint", ${DATE_FIELDS}) or a2.kind = ${ActivityKind.event}))`,
      ),
    )
    .orderBy(asc(owa.objectiveId), asc(activityParts.axis));
}
export type DatedTreeRow = Awaited<ReturnType<typeof datedTreesOf>>[number];

// ---- The feed ----

export async function feedOfUser(db: Db, userId: string) {
  const [row] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId)).limit(1);
  return row ?? null;
}

export async function feedByTokenHash(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ userId: calendarFeeds.userId, locale: calendarFeeds.locale })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

export async function feedItemStates(db: Db, userId: string) {
  return db.select().from(calendarFeedItems).where(eq(calendarFeedItems.userId, userId));
}

/**
 * Records the items whose published fields changed (or are new): a new item starts at sequence 0,
 * a changed one goes up by one; both take `now` as their DTSTAMP. One statement for all of them.
 */
export async function saveFeedItemStates(
  db: Db,
  userId: string,
  changed: { itemId: string; hash: string }[],
  now: Date,
): Promise<void> {
  if (changed.length === 0) return;
  await db
    .insert(calendarFeedItems)
    .values(changed.map((c) => ({ userId, itemId: c.itemId, hash: c.hash, sequence: 0, changed: now })))
    .onConflictDoUpdate({
      target: [calendarFeedItems.userId, calendarFeedItems.itemId],
      set: {
        hash: sql`excluded.hash`,
        sequence: sql`${calendarFeedItems.sequence} + 1`,
        changed: sql`excluded.changed`,
      },
      setWhere: sql`${calendarFeedItems.hash} <> excluded.hash`,
    });
}
