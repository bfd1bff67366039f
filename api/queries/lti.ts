import { and, asc, eq, gt, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import {
  activities,
  activityParts,
  activityRecords,
  activityWorkflows,
  ltiOneTimeValues,
  ltiResults,
  objectives,
  objectiveWorkflowAggregates,
  objectiveWorkflows,
  userRoles,
  users,
} from "../db/schema";

/** A resource link of a course (an activity part) with its activity and course, in one query. */
export async function resourceLink(db: Db | Tx, objectiveId: string, partId: string) {
  const rows = await db
    .select({ part: activityParts, activity: activities, objective: objectives })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .innerJoin(objectives, eq(objectives.id, activityParts.objectiveId))
    .where(and(eq(activityParts.id, partId), eq(activityParts.objectiveId, objectiveId)))
    .limit(1);
  return rows[0] ?? null;
}

/** The resource links of a course that launch one tool (by `content.tool`). */
export async function toolLinks(db: Db | Tx, objectiveId: string, toolKey: string) {
  const rows = await db
    .select({ part: activityParts, activity: activities })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .where(eq(activityParts.objectiveId, objectiveId));
  return rows.filter((r) => (r.activity.content as { tool?: unknown }).tool === toolKey);
}

/** Marks a one-time value used; false when it was used before (a replay). */
export async function useOnce(
  db: Db | Tx,
  kind: "nonce" | "jti" | "oauth-nonce" | "hint",
  clientId: string,
  value: string,
  now: Date,
) {
  const rows = await db
    .insert(ltiOneTimeValues)
    .values({ kind, clientId, value, used: now })
    .onConflictDoNothing()
    .returning({ value: ltiOneTimeValues.value });
  return rows.length > 0;
}

/**
 * Where a tool's score for a learner goes (AGS §3.4): the learner's latest attempt at the course (its
 * aggregate's last workflow, whatever its state — the caller refuses a closed one with its reason), the
 * activity's workflow and record in it, and the last score kept for the line item. Null: the learner
 * has no attempt at this course. One statement.
 */
export async function learnerStanding(db: Db | Tx, userId: string, objectiveId: string, partId: string) {
  const rows = await db
    .select({ wf: objectiveWorkflows, aw: activityWorkflows, rec: activityRecords, kept: ltiResults })
    .from(objectiveWorkflowAggregates)
    .innerJoin(objectiveWorkflows, eq(objectiveWorkflows.id, objectiveWorkflowAggregates.lastWorkflowId))
    .leftJoin(
      activityWorkflows,
      and(
        eq(activityWorkflows.objectiveWorkflowId, objectiveWorkflows.id),
        eq(activityWorkflows.activityPartId, partId),
      ),
    )
    .leftJoin(activityRecords, eq(activityRecords.activityWorkflowId, activityWorkflows.id))
    .leftJoin(ltiResults, and(eq(ltiResults.lineItemId, partId), eq(ltiResults.userId, userId)))
    .where(
      and(eq(objectiveWorkflowAggregates.userId, userId), eq(objectiveWorkflowAggregates.objectiveId, objectiveId)),
    )
    .limit(1);
  return rows[0] ?? null;
}

/** The course a tool's service call names: its id and tenant, or null. */
export async function serviceContext(db: Db | Tx, objectiveId: string) {
  const [row] = await db
    .select({ id: objectives.id, tenantId: objectives.tenantId, name: objectives.name, code: objectives.code })
    .from(objectives)
    .where(eq(objectives.id, objectiveId))
    .limit(1);
  return row ?? null;
}

export interface MemberQuery {
  /** Keyset paging: members after this user id (ids ascending). */
  after?: string;
  limit: number;
  role?: "Learner" | "Instructor";
  /** Membership differences (NRPS §2.4.2): only members whose membership began or ended since then. */
  since?: Date;
  now: Date;
}

/**
 * NRPS 2.0 §2: a course's membership — learners enrolled in it (their enrolment's end makes them
 * Inactive) and the instructors of its tenant (the Instructor role, as the communications hub reads it;
 * decision 027) — one page in user id order, one statement. A page of `limit` + 1 rows tells whether
 * there is a next one.
 */
export async function contextMembers(db: Db | Tx, context: { id: string; tenantId: string }, q: MemberQuery) {
  const instructor = sql<boolean>`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${users.id} and ${userRoles.role} = 'Instructor')`;
  const ended = sql<boolean>`coalesce(${objectiveWorkflowAggregates.availabilityEndDate} <= ${q.now.toISOString()}::timestamptz, false)`;
  const filters: (SQL | undefined)[] = [
    eq(users.tenantId, context.tenantId),
    // Decision 059: a deactivated account (SCIM active: false) is in no roster.
    isNull(users.deactivatedAt),
    or(isNotNull(objectiveWorkflowAggregates.id), instructor),
    q.after ? gt(users.id, q.after) : undefined,
    q.role === "Learner" ? isNotNull(objectiveWorkflowAggregates.id) : q.role === "Instructor" ? instructor : undefined,
  ];
  if (q.since) {
    const since = q.since.toISOString();
    filters.push(
      or(
        sql`${objectiveWorkflowAggregates.createdAt} > ${since}::timestamptz`,
        and(
          sql`${objectiveWorkflowAggregates.availabilityEndDate} > ${since}::timestamptz`,
          sql`${objectiveWorkflowAggregates.availabilityEndDate} <= ${q.now.toISOString()}::timestamptz`,
        ),
        and(instructor, sql`${users.createdAt} > ${since}::timestamptz`),
      ),
    );
  }
  return db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      middleName: users.middleName,
      lastName: users.lastName,
      learner: sql<boolean>`${objectiveWorkflowAggregates.id} is not null`,
      ended,
      instructor,
    })
    .from(users)
    .leftJoin(
      objectiveWorkflowAggregates,
      and(eq(objectiveWorkflowAggregates.userId, users.id), eq(objectiveWorkflowAggregates.objectiveId, context.id)),
    )
    .where(and(...filters))
    .orderBy(asc(users.id))
    .limit(q.limit + 1);
}

/**
 * The person a launch may tell the tool about (`personalClaims`): nothing is read for a tool at the
 * "anonymous" level (the default).
 */
export async function launchPerson(db: Db | Tx, privacy: string | undefined, userId: string) {
  if (privacy === undefined || privacy === "anonymous") return null;
  const [p] = await db
    .select({ firstName: users.firstName, middleName: users.middleName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return p ?? null;
}
