import { Hono, type Context } from "hono";
import { parseFilter, type FilterNode } from "../../domain/filter-expression";
import { parseFilterAttributes } from "../../domain/contract/courses";
import { gradesQuerySchema } from "../../domain/contract/grades";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { ApiError, message, notFound } from "../errors";
import { toList } from "../mappers/common";
import { queryGrades, type GradesListOptions } from "../queries/grades";
import { idParams, isUuid, params, query } from "../validate";

/** The grades query's input: My courses' filters (spec 7.2's text filter, collections, categories), its own sorts. */
function gradesParams(c: Context<ApiEnv>): GradesListOptions {
  const q = query(c, gradesQuerySchema);
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

  r.get("/users/me/grades/query", async (c) => {
    const { data, totalCount } = await queryGrades(c.var.db, c.var.user.id, gradesParams(c), c.var.now);
    return c.json(toList(data, totalCount));
  });

  r.get("/users/me/grades/:id", async (c) => {
    const { id } = params(c, idParams);
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
  });

  return r;
}
