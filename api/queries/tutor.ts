// The tutor's retrieval (decision 028): PostgreSQL full-text search over the text activities of a course
// that the learner may open now (spec 4.12), in the learner's language's configuration.
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { objectives, objectiveWorkflowAggregates as owa, objectiveWorkflows, tutorExchanges } from "../db/schema";
import { notFound } from "../errors";
import { attemptAccess, type AttemptRow } from "./activity-access";
import type { TutorExchange, TutorPassage } from "../../domain/contract/tutor";
import { ActivityKind } from "../../domain/vocabulary";

/** The caller's own enrolment in a course with the tutor on; anything else is "not found". */
export async function tutorCourse(db: Db, userId: string, aggregateId: string) {
  const [row] = await db
    .select({
      objectiveId: owa.objectiveId,
      tenantId: owa.tenantId,
      enableAiTutor: objectives.enableAiTutor,
      wf: {
        id: objectiveWorkflows.id,
        objectiveId: objectiveWorkflows.objectiveId,
        aggregateId: objectiveWorkflows.aggregateId,
        state: objectiveWorkflows.state,
      },
    })
    .from(owa)
    .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
    .leftJoin(objectiveWorkflows, eq(objectiveWorkflows.id, owa.lastWorkflowId))
    .where(and(eq(owa.id, aggregateId), eq(owa.userId, userId)))
    .limit(1);
  if (!row || !row.enableAiTutor) throw notFound("knowledge model");
  return { ...row, workflow: row.wf?.id ? (row.wf as AttemptRow) : null };
}

/** The parts of the course the learner may open in their current attempt (none before they start). */
export async function openParts(db: Db, workflow: AttemptRow | null, now: Date): Promise<string[]> {
  if (!workflow) return [];
  const access = await attemptAccess(db, workflow, now);
  if (!access.reviewAllowed) return [];
  return [...access.locks].filter(([, lock]) => lock === null).map(([partId]) => partId);
}

/**
 * The best passages of the open text activities for a question: words of the question joined by OR
 * (a question's words rarely all appear in one text), ranked by ts_rank, each with its best fragments.
 * Locked parts are not searched at all, so nothing of them can be cited or quoted.
 */
export async function retrieve(
  db: Db,
  objectiveId: string,
  partIds: string[],
  question: string,
  config: string,
  limit = 3,
): Promise<TutorPassage[]> {
  if (partIds.length === 0) return [];
  const cfg = sql`${config}::regconfig`;
  const result = await db.execute<{ activityPathId: string; name: string; text: string }>(sql`
    with q as (
      select to_tsquery(${cfg}, coalesce((
        select string_agg(quote_literal(l), ' | ') from unnest(tsvector_to_array(to_tsvector(${cfg}, ${question}))) l
      ), '')) as query
    ), docs as (
      select ap.id, a.name, regexp_replace(coalesce(a.content->>'html', ''), '<[^>]+>', ' ', 'g') as plain
      from activity_parts ap join activities a on a.id = ap.activity_id
      where ap.objective_id = ${objectiveId} and a.kind = ${ActivityKind.text}
        and ap.id in (${sql.join(
          partIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
    )
    select docs.id as "activityPathId", docs.name,
      ts_headline(${cfg}, docs.plain, q.query, 'MaxFragments=2, MaxWords=40, MinWords=12, StartSel="", StopSel="", FragmentDelimiter=" … "') as text
    from docs, q
    where to_tsvector(${cfg}, docs.plain) @@ q.query
    order by ts_rank(to_tsvector(${cfg}, docs.plain), q.query) desc, docs.name
    limit ${limit}
  `);
  const rows = (result as unknown as { rows: { activityPathId: string; name: string; text: string }[] }).rows;
  return rows.map((r) => ({
    activityPathId: r.activityPathId,
    name: r.name,
    text: r.text.replace(/\s+/g, " ").trim(),
  }));
}

export async function conversation(db: Db, userId: string, objectiveId: string): Promise<TutorExchange[]> {
  const rows = await db
    .select()
    .from(tutorExchanges)
    .where(and(eq(tutorExchanges.userId, userId), eq(tutorExchanges.objectiveId, objectiveId)))
    .orderBy(desc(tutorExchanges.createdAt))
    .limit(20);
  return rows.reverse().map((r) => {
    const passages = r.passages as TutorPassage[];
    return {
      id: r.id,
      question: r.question,
      answer: r.answer,
      answeredBy: r.answeredBy as TutorExchange["answeredBy"],
      passages,
      citations: passages.map(({ activityPathId, name }) => ({ activityPathId, name })),
      createdAt: r.createdAt.toISOString(),
    };
  });
}
