// The tutor's retrieval (decision 028): PostgreSQL full-text search over what the learner may open now in a
// course (spec 4.12) — texts, PDF pages, discussion posts — in the learner's language's configuration.
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { objectives, objectiveWorkflowAggregates as owa, objectiveWorkflows, tutorExchanges } from "../db/schema";
import { notFound } from "../errors";
import { attemptAccess, type AttemptRow } from "./activity-access";
import { citationsOf, type TutorExchange, type TutorPassage } from "../../domain/contract/tutor";
import { ActivityContentType, ActivityKind } from "../../domain/vocabulary";

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
 * The best passages of what the learner may open for a question (decision 028): the text activities,
 * each page of the PDF activities (content_pages, while the activity still names the file the text came
 * from), and the posts of the discussion activities. The question's words are joined by OR (a question's
 * words rarely all appear in one text); the documents are ranked by ts_rank, the best one kept per
 * activity and PDF page, each quoted with its best fragments. Locked parts are not in the search at all,
 * so nothing of them can be cited or quoted. One statement, however many pages or posts.
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
  type Found = { activityPathId: string; name: string; page: number | null; text: string };
  const result = await db.execute<Found>(sql`
    with words as (
      select tsvector_to_array(to_tsvector(${cfg}, ${question})) as lexemes
    ), q as (
      select to_tsquery(${cfg}, coalesce((
        select string_agg(quote_literal(l), ' | ') from unnest(words.lexemes) l
      ), '')) as query, words.lexemes
      from words
    ), opened as (
      select ap.id, a.id as activity_id, a.name, a.kind, a.content_type, a.content
      from activity_parts ap join activities a on a.id = ap.activity_id
      where ap.objective_id = ${objectiveId}
        and ap.id in (${sql.join(
          partIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
    ), docs as (
      select o.id, o.name, null::int as page, regexp_replace(o.content->>'html', '<[^>]+>', ' ', 'g') as plain
      from opened o where o.kind = ${ActivityKind.text} and o.content->>'html' is not null
      union all
      select o.id, o.name, p.page, p.text
      from opened o join content_pages p on p.activity_id = o.activity_id
        and p.source = case o.content_type when ${ActivityContentType.PrivateFile} then o.content->>'path' else o.content->>'url' end
      where o.content_type in (${ActivityContentType.PublicFile}, ${ActivityContentType.PrivateFile})
      union all
      select o.id, o.name, null::int, d.body
      from opened o join discussion_posts d on d.activity_part_id = o.id
      where o.kind = ${ActivityKind.discussion}
    ), ranked as (
      -- First the documents with more of the question's words, then ts_rank over the length (1: a long
      -- PDF page that repeats one common word does not outrank a short text with all of them).
      select docs.*,
        cardinality(array(select unnest(tsvector_to_array(v.doc)) intersect select unnest(q.lexemes))) as covered,
        ts_rank(v.doc, q.query, 1) as rank
      from docs cross join lateral (select to_tsvector(${cfg}, docs.plain) as doc) v, q
      where v.doc @@ q.query
    ), best as (
      select distinct on (id, page) * from ranked order by id, page, covered desc, rank desc
    ), chosen as (
      select * from best order by covered desc, rank desc, name, page nulls first, id limit ${limit}
    )
    select chosen.id as "activityPathId", chosen.name, chosen.page,
      ts_headline(${cfg}, chosen.plain, q.query, 'MaxFragments=2, MaxWords=40, MinWords=12, StartSel="", StopSel="", FragmentDelimiter=" … "') as text
    from chosen, q
    order by chosen.covered desc, chosen.rank desc, chosen.name, chosen.page nulls first, chosen.id
  `);
  const rows = (result as unknown as { rows: Found[] }).rows;
  return rows.map((r) => ({
    activityPathId: r.activityPathId,
    name: r.name,
    ...(r.page === null ? {} : { page: r.page }),
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
      citations: citationsOf(passages),
      createdAt: r.createdAt.toISOString(),
    };
  });
}
