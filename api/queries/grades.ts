// Queries: reads and writes the handlers share, grouped by resource. This one: the learner's grades overview
// (issue 31 item 1) — a page of the learner's courses with attempt and result, and the graded activities of
// those courses' attempts, in three statements whatever the number of courses (page, count, activities).
import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { FilterNode } from "../../domain/filter-expression/fields";
import { andAll } from "../../domain/filter-expression/format";
import type { GradeCourse } from "../../domain/contract/grades";
import { ActivityKind, ObjectiveState, ObjectiveWorkflowState } from "../../domain/vocabulary";
import type { Db } from "../db/client";
import {
  activities,
  activityParts,
  activityRecords,
  activityWorkflows,
  grades,
  objectiveRecords,
  objectives,
  objectiveWorkflowAggregates as owa,
  objectiveWorkflows,
} from "../db/schema";
import { filterToSql, needsObjectiveJoin } from "../filter-sql";
import { aggregateColumns, gradeColumns, gradeMapOf, recordColumns, workflowColumns } from "../mappers/courses";
import { toGradeActivity, toGradeCourse, type GradeActivityRow } from "../mappers/grades";
import { collectionAndAttributeConditions, STANDING } from "./course-scopes";

export interface GradesListOptions {
  filter: FilterNode | null;
  showcaseIds: string[];
  attributeGroups: { categoryId: string; attributeIds: string[] }[];
  sort: string;
  skip: number;
  take: number;
  requireTotalCount: boolean;
  /** One course only (the course page's part of the grades). */
  objectiveId?: string;
}

/**
 * The record's normalised score where spec 4.7 shows it, else null: the SQL twin of `toRecord`'s rule
 * (`gradeVisibility` over the aggregate's policy and the last workflow's state, a record without a
 * workflow counting as finished, protected results hidden), so sorting by score orders only what the
 * learner may see and a hidden score never shows through the order. `grades-api.test.ts` checks it
 * against the domain rule case by case.
 */
function visibleScore(now: Date): SQL<number | null> {
  return sql<
    number | null
  >`case when ${objectiveRecords.id} is not null and not ${objectiveRecords.protectResults} and (
      ${owa.gradeRevealPolicy} = 'none'
      or (${owa.gradeRevealPolicy} = 'afterFinish' and coalesce(${objectiveWorkflows.state}, ${sql.raw(String(ObjectiveWorkflowState.finished))}) >= ${sql.raw(String(ObjectiveWorkflowState.submitted))})
      or (${owa.gradeRevealPolicy} = 'afterDate' and ${owa.gradeRevealDate} is not null and ${owa.gradeRevealDate} <= ${now})
    ) then ${objectiveRecords.normalizedScore} end`;
}

function orderFor(sort: string, now: Date): SQL[] {
  const descending = sort.startsWith("-");
  const key = sort.replace(/^-/, "");
  const dir = (expr: SQL | typeof owa.sortName) =>
    descending ? sql`${expr} desc nulls last` : sql`${expr} asc nulls last`;
  const byName = [asc(owa.sortName), asc(owa.id)];
  switch (key) {
    case "score":
      return [dir(visibleScore(now)), ...byName];
    case "finished":
      return [dir(sql`coalesce(${objectiveRecords.finished}, ${objectiveWorkflows.finished})`), ...byName];
    case "progress":
      return [dir(sql`coalesce(${objectiveWorkflows.progress}, ${objectiveRecords.progress}, 0)`), ...byName];
    default:
      return descending ? [desc(owa.sortName), desc(owa.id)] : byName;
  }
}

/**
 * A page of the learner's courses (the standing conditions and the client's filters of My courses) with
 * their last attempt, last record (through the reveal rule) and grade, and the graded activities of each
 * course with the last attempt's records; the total when asked for.
 */
export async function queryGrades(
  db: Db,
  userId: string,
  list: GradesListOptions,
  now: Date,
): Promise<{ data: GradeCourse[]; totalCount: number | null }> {
  const tree = andAll(STANDING, list.filter)!;
  const where = and(
    eq(owa.userId, userId),
    list.objectiveId ? eq(owa.objectiveId, list.objectiveId) : undefined,
    filterToSql(tree),
    ...collectionAndAttributeConditions(list.showcaseIds, list.attributeGroups, sql`${owa.objectiveId}`),
  );
  const page = db
    .select({
      a: aggregateColumns,
      o: {
        id: objectives.id,
        name: objectives.name,
        code: objectives.code,
        supportReview: objectives.supportReview,
      },
      w: workflowColumns,
      r: recordColumns,
      g: gradeColumns,
    })
    .from(owa)
    .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
    .leftJoin(objectiveWorkflows, eq(objectiveWorkflows.id, owa.lastWorkflowId))
    .leftJoin(objectiveRecords, eq(objectiveRecords.id, owa.lastRecordId))
    .leftJoin(grades, eq(grades.id, objectiveRecords.gradeId))
    .where(where)
    .orderBy(...orderFor(list.sort, now))
    .limit(list.take)
    .offset(list.skip);
  const count = list.requireTotalCount
    ? needsObjectiveJoin(tree)
      ? db
          .select({ n: sql<number>`count(*)::int` })
          .from(owa)
          .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
          .where(where)
      : db
          .select({ n: sql<number>`count(*)::int` })
          .from(owa)
          .where(where)
    : null;
  const [rows, total] = await Promise.all([page, count]);
  const activityRows = await gradedActivities(
    db,
    rows.map((r) => r.o.id),
    rows.flatMap((r) => (r.w ? [r.w.id] : [])),
  );
  const byCourse = new Map<string, GradeActivityRow[]>();
  for (const row of activityRows) {
    const list = byCourse.get(row.objectiveId) ?? [];
    list.push(row);
    byCourse.set(row.objectiveId, list);
  }
  const gradeMap = gradeMapOf(rows.map((r) => r.g));
  const data = rows.map((row) =>
    toGradeCourse(row, gradeMap, now, (reveal) =>
      (byCourse.get(row.o.id) ?? []).map((a) => toGradeActivity(a, reveal)),
    ),
  );
  return { data, totalCount: total ? total[0].n : null };
}

/**
 * The graded activities (a max score, or graded by a person) of some courses, in tree order, each with its
 * newest activity record in the given attempts: one statement for the whole page.
 */
async function gradedActivities(db: Db, objectiveIds: string[], workflowIds: string[]): Promise<GradeActivityRow[]> {
  if (objectiveIds.length === 0) return [];
  const rows = await db
    .selectDistinctOn([activityParts.id], {
      objectiveId: activityParts.objectiveId,
      activityPathId: activityParts.id,
      axis: activityParts.axis,
      activityId: activities.id,
      name: activities.name,
      maxScore: activities.maxScore,
      score: activityRecords.score,
      recordMaxScore: activityRecords.maxScore,
      passed: activityRecords.passed,
      finished: activityRecords.finished,
    })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .leftJoin(
      activityWorkflows,
      and(
        eq(activityWorkflows.activityPartId, activityParts.id),
        workflowIds.length ? inArray(activityWorkflows.objectiveWorkflowId, workflowIds) : sql`false`,
      ),
    )
    .leftJoin(activityRecords, eq(activityRecords.activityWorkflowId, activityWorkflows.id))
    .where(
      and(
        inArray(activityParts.objectiveId, objectiveIds),
        sql`(${activities.maxScore} is not null or ${activities.manualGrading})`,
        sql`${activities.kind} <> ${sql.raw(String(ActivityKind.composite))}`,
        sql`${activities.state} <> ${sql.raw(String(ObjectiveState.archived))}`,
      ),
    )
    .orderBy(activityParts.id, sql`${activityRecords.finished} desc nulls last`);
  // Tree order within each course (distinct on needs the part first).
  return rows.sort((x, y) =>
    x.objectiveId === y.objectiveId
      ? x.axis.localeCompare(y.axis, "en", { numeric: true })
      : x.objectiveId.localeCompare(y.objectiveId),
  );
}
