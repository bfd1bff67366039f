import { Hono, type Context } from "hono";
import { parseFilter } from "../../domain/filter-expression";
import type { FilterNode } from "../../domain/filter-expression/fields";
import { COURSE_LIST_REPEATED, parseFilterAttributes } from "../../domain/contract/courses";
import { listOf } from "../../domain/contract/common";
import { gradeCourseSchema, gradesQuerySchema, type GradesQuery } from "../../domain/contract/grades";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { ApiError, message, notFound } from "../errors";
import { toList } from "../mappers/common";
import { queryGrades, type GradesListOptions } from "../queries/grades";
import { operations } from "../openapi";
import { idParams, isUuid, validParams, validQuery } from "../validate";

const op = operations("grades");

/** The grades query's input: My courses' filters (spec 7.2's text filter, collections, categories), its own sorts. */
function gradesParams(c: Context<ApiEnv>, q: GradesQuery): GradesListOptions {
  const showcaseIds = c.req.queries("showcase") ?? [];
  if (showcaseIds.length > 50 || !showcaseIds.every((s) => isUuid(s)))
    throw new ApiError(400, { showcase: [message("invalid", "showcase must be one or more collection ids (uuid).")] });
  const attrs = parseFilterAttributes(c.req.queries("filterAttribute") ?? []);
  if (!attrs.ok) throw new ApiError(400, { filterAttribute: [message("invalid", attrs.error)] });
  let filter: FilterNode | null = null;
  if (q.filter) {
    const parsed = parseFilter(q.filter);
    if (!parsed.ok) throw new ApiError(400, { filter: [message("invalidFilter", parsed.error)] });
    filter = parsed.tree;
  }
  return { ...q, filter, showcaseIds, attributeGroups: attrs.groups };
}

/**
 * The learner's grades (issue 31 item 1; paths not shown by the spec, in its style): a page of courses
 * with attempt, result and graded activities, and one course's part. Scoped to the caller; every score
 * through spec 4.7's reveal rules.
 */
export function gradeRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("/users/me/grades/*", requireUser);

  r.get(
    "/users/me/grades/query",
    op({
      summary:
        "Issue 31: a page of the learner's courses with the last attempt, its record and grade, and the course's graded activities with the attempt's records — every score through spec 4.7's reveal rules; filters as the aggregates query",
      response: listOf(gradeCourseSchema),
      repeatedQuery: COURSE_LIST_REPEATED,
      notShown: true,
    }),
    validQuery(gradesQuerySchema),
    async (c) => {
      const options = gradesParams(c, c.req.valid("query"));
      const { data, totalCount } = await queryGrades(c.var.db, c.var.user.id, options, c.var.now);
      return c.json(toList(data, totalCount));
    },
  );

  r.get(
    "/users/me/grades/:id",
    op({
      summary: "Issue 31: one of the learner's courses as the grades query lists it (404 when not theirs)",
      response: gradeCourseSchema,
      notShown: true,
    }),
    validParams(idParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const { data } = await queryGrades(
        c.var.db,
        c.var.user.id,
        {
          filter: null,
          showcaseIds: [],
          attributeGroups: [],
          sort: "objective.name",
          skip: 0,
          take: 1,
          requireTotalCount: false,
          objectiveId: id,
        },
        c.var.now,
      );
      if (!data[0]) throw notFound("course");
      return c.json(data[0]);
    },
  );

  return r;
}
