/**
 * The learner's notifications (issue 49 item 3, decision 058): "your assignment was graded", written by a
 * grade's release in its transaction, read by the hub (unread count, list) and mailed by the learner mail
 * job. One row per learner, kind and item key: the key of a released grade is the hand-in and its score, so
 * a release run again notifies nothing, and a grade that changed notifies again.
 */
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { activities, activityParts, learnerNotifications, objectives } from "../db/schema";

/** The item key of a released grade: the hand-in (or attempt item) and the score it was released with. */
function gradedItemKey(itemId: string, score: number | null): string {
  return `${itemId}:${score ?? "none"}`;
}

/** Tells the learner a grade of hers was released; nothing when this grade was already told. */
export async function notifyGraded(
  tx: Tx,
  n: {
    userId: string;
    itemId: string;
    objectiveId: string;
    activityPartId: string;
    score: number | null;
    maxScore: number | null;
  },
  now: Date,
): Promise<boolean> {
  const rows = await tx
    .insert(learnerNotifications)
    .values({
      userId: n.userId,
      kind: "graded",
      itemKey: gradedItemKey(n.itemId, n.score),
      objectiveId: n.objectiveId,
      activityPartId: n.activityPartId,
      score: n.score,
      maxScore: n.maxScore,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: learnerNotifications.id });
  return rows.length > 0;
}

export interface LearnerNotification {
  id: string;
  kind: "graded";
  objectiveId: string;
  courseName: string;
  activityPartId: string;
  activityName: string;
  score: number | null;
  maxScore: number | null;
  createdAt: Date;
  read: boolean;
}

/** The learner's newest notifications (of the given courses, or all), one statement. */
export async function notificationsOf(
  db: Db | Tx,
  userId: string,
  objectiveIds: string[] | null,
  limit = 20,
): Promise<LearnerNotification[]> {
  const rows = await db
    .select({
      id: learnerNotifications.id,
      kind: learnerNotifications.kind,
      objectiveId: learnerNotifications.objectiveId,
      courseName: objectives.name,
      activityPartId: learnerNotifications.activityPartId,
      activityName: activities.name,
      score: learnerNotifications.score,
      maxScore: learnerNotifications.maxScore,
      createdAt: learnerNotifications.createdAt,
      readAt: learnerNotifications.readAt,
    })
    .from(learnerNotifications)
    .innerJoin(objectives, eq(objectives.id, learnerNotifications.objectiveId))
    .innerJoin(activityParts, eq(activityParts.id, learnerNotifications.activityPartId))
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .where(
      and(
        eq(learnerNotifications.userId, userId),
        objectiveIds ? inArray(learnerNotifications.objectiveId, objectiveIds) : undefined,
      ),
    )
    .orderBy(desc(learnerNotifications.createdAt))
    .limit(limit);
  return rows.map(({ readAt, ...r }) => ({ ...r, read: readAt !== null }));
}

/** Unread notifications per course, with the newest's time (the shell's badge), one statement. */
export async function unreadNotifications(db: Db | Tx, userId: string) {
  return db
    .select({
      objectiveId: learnerNotifications.objectiveId,
      unread: sql<number>`count(*)::int`,
      latest: sql<string>`max(${learnerNotifications.createdAt})`,
    })
    .from(learnerNotifications)
    .where(and(eq(learnerNotifications.userId, userId), isNull(learnerNotifications.readAt)))
    .groupBy(learnerNotifications.objectiveId);
}

/** Marks the learner's notifications of a course read; returns how many were unread. */
export async function markNotificationsRead(db: Db | Tx, userId: string, objectiveId: string, now: Date) {
  const rows = await db
    .update(learnerNotifications)
    .set({ readAt: now })
    .where(
      and(
        eq(learnerNotifications.userId, userId),
        eq(learnerNotifications.objectiveId, objectiveId),
        isNull(learnerNotifications.readAt),
      ),
    )
    .returning({ id: learnerNotifications.id });
  return rows.length;
}
