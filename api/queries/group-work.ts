// Team and mini-group activities (spec 1, 3, 7.3; decision 026): which group a learner works with on an
// activity, the group's one workflow of it, and its members with their contributions.
import { and, asc, count, eq, ilike, isNull, or, sql } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import { groupForActivity } from "../../domain/groups";
import { ActivityWorkflowState } from "../../domain/vocabulary";
import type { GroupActivityWorkflow, ParticipantsPage } from "../../domain/contract/groups";
import type { Db, Tx } from "../db/client";
import {
  activityParts,
  activityWorkflows,
  groupActivityWorkflows as gaw,
  groupContributions,
  groupMembers,
  groups,
  objectiveWorkflowAggregates as owa,
  users,
} from "../db/schema";
import { notFound } from "../errors";
import { iso } from "../mappers/common";

/** The groups a user belongs to that may work in a course (tenant-wide ones and the course's own). */
export async function candidateGroups(db: Db | Tx, userId: string, objectiveId: string) {
  return db
    .select({
      id: groups.id,
      name: groups.name,
      kind: groups.kind,
      objectiveId: groups.objectiveId,
      activityPartId: groups.activityPartId,
    })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(and(eq(groupMembers.userId, userId), or(isNull(groups.objectiveId), eq(groups.objectiveId, objectiveId))));
}

/**
 * The group's workflow of a part, made by the first member who starts it (any member's start finds the
 * same row: the unique index on group and part decides, under concurrency too).
 */
export async function ensureGroupWorkflow(tx: Tx, groupId: string, activityPartId: string, userId: string, now: Date) {
  await tx
    .insert(gaw)
    .values({ groupId, activityPartId, started: now, startedBy: userId, state: 1 })
    .onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(gaw)
    .where(and(eq(gaw.groupId, groupId), eq(gaw.activityPartId, activityPartId)));
  return row;
}

/** Counts one contribution of a member (a save or the submission). */
export async function recordContribution(
  tx: Tx,
  gawId: string,
  userId: string,
  kind: "saved" | "submitted",
  now: Date,
) {
  await tx
    .insert(groupContributions)
    .values({ groupActivityWorkflowId: gawId, userId, contributions: 1, firstAt: now, lastAt: now, lastKind: kind })
    .onConflictDoUpdate({
      target: [groupContributions.groupActivityWorkflowId, groupContributions.userId],
      set: { contributions: sql`${groupContributions.contributions} + 1`, lastAt: now, lastKind: kind },
    });
}

const finisher = alias(users, "finisher");
const editor = alias(users, "editor");
const name = (u: { firstName: AnyPgColumn; lastName: AnyPgColumn }) =>
  sql<string | null>`nullif(trim(${u.firstName} || ' ' || ${u.lastName}), '')`;

/**
 * A group workflow as one member sees it, through the member's own aggregate of the course: one
 * statement; anyone outside the group, another course's aggregate or another user's → 404.
 */
export async function groupWorkflowForMember(
  db: Db | Tx,
  userId: string,
  aggregateId: string,
  gawId: string,
  lock = false,
) {
  const q = db
    .select({
      gaw,
      group: { id: groups.id, name: groups.name, kind: groups.kind },
      objectiveId: activityParts.objectiveId,
      lastWorkflowId: owa.lastWorkflowId,
      finishedByName: name(finisher),
      updatedByName: name(editor),
    })
    .from(gaw)
    .innerJoin(groups, eq(groups.id, gaw.groupId))
    .innerJoin(groupMembers, and(eq(groupMembers.groupId, groups.id), eq(groupMembers.userId, userId)))
    .innerJoin(activityParts, eq(activityParts.id, gaw.activityPartId))
    .innerJoin(
      owa,
      and(eq(owa.id, aggregateId), eq(owa.userId, userId), eq(owa.objectiveId, activityParts.objectiveId)),
    )
    .leftJoin(finisher, eq(finisher.id, gaw.finishedBy))
    .leftJoin(editor, eq(editor.id, gaw.updatedBy))
    .where(eq(gaw.id, gawId))
    .limit(1);
  const [row] = lock ? await q.for("update", { of: gaw }) : await q;
  if (!row) throw notFound("group activity workflow");
  return row;
}

export type GroupWorkflowRow = Awaited<ReturnType<typeof groupWorkflowForMember>>;

/** The contract's shape; scores only where the attempt's results may be shown (spec 4.7). */
export function toGroupActivityWorkflow(row: GroupWorkflowRow, reveal: boolean): GroupActivityWorkflow {
  const g = row.gaw;
  return {
    id: g.id,
    activityPathId: g.activityPartId,
    state: g.state,
    group: row.group,
    started: g.started.toISOString(),
    finished: iso(g.finished),
    finishedBy: g.finishedBy ? { id: g.finishedBy, name: row.finishedByName ?? "" } : null,
    work: {
      text: g.work.text,
      version: g.version,
      updatedAt: iso(g.updatedAt),
      updatedBy: g.updatedBy ? { id: g.updatedBy, name: row.updatedByName ?? "" } : null,
    },
    result:
      g.state === ActivityWorkflowState.inProgress
        ? null
        : reveal
          ? { score: g.score, maxScore: g.maxScore, passed: g.passed }
          : null,
  };
}

/**
 * Spec 7.3 participants: the members of the caller's group for one part of their attempt, with their
 * contributions to the group's workflow (if started), filtered by name and paged. The group is the
 * one the caller's own activity workflow follows, else the one they would work with (so teammates are
 * known before anyone starts). Two statements: the caller's workflow and groups, then the page with
 * its count (a window function).
 */
export async function participants(
  db: Db,
  userId: string,
  wf: { id: string; objectiveId: string },
  activityPartId: string,
  q: { search?: string; skip: number; take: number },
): Promise<ParticipantsPage> {
  const [[own], candidates] = await Promise.all([
    db
      .select({
        partObjective: activityParts.objectiveId,
        gawId: gaw.id,
        groupId: gaw.groupId,
      })
      .from(activityParts)
      .leftJoin(
        activityWorkflows,
        and(eq(activityWorkflows.activityPartId, activityParts.id), eq(activityWorkflows.objectiveWorkflowId, wf.id)),
      )
      .leftJoin(gaw, eq(gaw.id, activityWorkflows.groupActivityWorkflowId))
      .where(eq(activityParts.id, activityPartId))
      .limit(1),
    candidateGroups(db, userId, wf.objectiveId),
  ]);
  if (!own || own.partObjective !== wf.objectiveId) throw notFound("activity");
  const group = own.groupId
    ? candidates.find((c) => c.id === own.groupId)
    : groupForActivity(candidates, { objectiveId: wf.objectiveId, activityPartId });
  if (!group) throw notFound("group");
  // The group's workflow of this part, whoever started it (the caller may not have yet).
  const started = own.gawId ?? null;
  const term = q.search?.trim().toLowerCase();
  const pattern = term ? `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null;
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      gawId: gaw.id,
      contributions: groupContributions.contributions,
      lastAt: groupContributions.lastAt,
      lastKind: groupContributions.lastKind,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .leftJoin(gaw, and(eq(gaw.groupId, groupMembers.groupId), eq(gaw.activityPartId, activityPartId)))
    .leftJoin(
      groupContributions,
      and(eq(groupContributions.groupActivityWorkflowId, gaw.id), eq(groupContributions.userId, users.id)),
    )
    .where(and(eq(groupMembers.groupId, group.id), nameMatches(pattern)))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .offset(q.skip)
    .limit(q.take);
  const totalCount = rows[0]?.total ?? (q.skip > 0 ? await countMembers(db, group.id, pattern) : 0);
  return {
    group: { id: group.id, name: group.name, kind: group.kind },
    groupActivityWorkflowId: started ?? rows[0]?.gawId ?? null,
    data: rows.map((r) => ({
      id: r.id,
      firstName: r.firstName,
      lastName: r.lastName,
      me: r.id === userId,
      contributions: r.contributions ?? 0,
      lastContributedAt: iso(r.lastAt),
      lastContribution: (r.lastKind as "saved" | "submitted" | null) ?? null,
    })),
    totalCount,
  };
}

/** The count when the page asked for is past the end (the window function had no row to ride on). */
async function countMembers(db: Db, groupId: string, pattern: string | null) {
  const [row] = await db
    .select({ n: count() })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(and(eq(groupMembers.groupId, groupId), nameMatches(pattern)));
  return row?.n ?? 0;
}

/** A member's name, either way round, contains the search text. */
function nameMatches(pattern: string | null) {
  if (!pattern) return undefined;
  return or(
    ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
    ilike(sql`${users.lastName} || ' ' || ${users.firstName}`, pattern),
  );
}
