import { Hono, type Context } from "hono";
import type { z } from "zod";
import { parseFilter } from "../../domain/filter-expression";
import type { FilterNode } from "../../domain/filter-expression/fields";
import {
  aggregateSchema,
  catalogDomainQuerySchema,
  COURSE_LIST_REPEATED,
  courseListQuerySchema,
  createSelfEnrollmentSchema,
  filterCategorySchema,
  gradingScaleSchema,
  objectiveAccessDetailSchema,
  objectiveAccessSchema,
  parseAggregateSelect,
  parseFilterAttributes,
  publicObjectiveDetailSchema,
  publicObjectiveSchema,
  showcaseSchema,
  termSchema,
  type AggregateSelection,
  type ObjectiveAccessDetail,
  type PublicObjectiveDetail,
} from "../../domain/contract/courses";
import { listOf } from "../../domain/contract/common";
import { attemptProctoringSessionSchema } from "../../domain/contract/proctoring";
import type { ApiEnv } from "../context";
import { requireFeature, requireUser } from "../auth";
import { runCommand } from "../commands/run";
import { createSelfEnrollment } from "../commands/enrolments";
import { ApiError, message, notFound } from "../errors";
import { toList } from "../mappers/common";
import { gradeMapOf, toObjective, toObjectiveAccess, toPublicObjective, toRecord } from "../mappers/courses";
import { loadAggregateFor, queryAggregates, termIdsOf } from "../queries/aggregates";
import {
  loadObjectiveAccess,
  loadPublicObjective,
  queryCatalogAccesses,
  queryPublicObjectives,
  tenantForDomain,
} from "../queries/catalog";
import { categoriesFor, showcasesFor, termsOf } from "../queries/course-filters";
import { catalogScope, enrolledScope, publicScope, type CourseListOptions } from "../queries/course-scopes";
import { loadScales } from "../queries/grading-scales";
import { lastProctoringSessionOf } from "../queries/proctoring";
import { idParams, isUuid, validJson, validParams, validQuery } from "../validate";
import { limitWrites } from "../limit-writes";
import { operations } from "../openapi";

const op = operations("courses");
const LIST_QUERY =
  "Query: sort, skip, take (≤ 100), requireTotalCount, search, showcase (repeatable collection id), filterAttribute (categoryId:attrId[,attrId], repeatable; OR within a category, AND across)";

type CourseListQuery = z.output<typeof courseListQuerySchema>;

/** The validated list query with the repeatable parameters, read one by one. */
function listParams(c: Context<ApiEnv>, q: CourseListQuery): CourseListOptions & CourseListQuery {
  const showcaseIds = c.req.queries("showcase") ?? [];
  if (showcaseIds.length > 50 || !showcaseIds.every((s) => isUuid(s))) {
    throw new ApiError(400, { showcase: [message("invalid", "showcase must be one or more collection ids (uuid).")] });
  }
  const attrs = parseFilterAttributes(c.req.queries("filterAttribute") ?? []);
  if (!attrs.ok) throw new ApiError(400, { filterAttribute: [message("invalid", attrs.error)] });
  return { ...q, showcaseIds, attributeGroups: attrs.groups };
}

/** `select` lists parsed once each: My courses sends the same one with every page (decision 038). */
const selects = new Map<string, ReturnType<typeof parseAggregateSelect>>();
function parsedSelect(text: string): ReturnType<typeof parseAggregateSelect> {
  let parsed = selects.get(text);
  if (!parsed) {
    parsed = parseAggregateSelect(text);
    // A bound on memory, not a policy: lists of fields are few, a client could make up many.
    if (selects.size >= 100) selects.clear();
    selects.set(text, parsed);
  }
  return parsed;
}

export function courseRoutes() {
  const r = new Hono<ApiEnv>();

  // ---- Public open catalog (spec 7.2): no sign-in, public courses only, no learner data. ----
  r.get(
    "/public/open-catalog/objectives/query",
    op({
      summary: `Public courses of the open catalog. ${LIST_QUERY}; domain selects the tenant`,
      auth: "none",
      response: listOf(publicObjectiveSchema),
      repeatedQuery: COURSE_LIST_REPEATED,
    }),
    validQuery(courseListQuerySchema),
    async (c) => {
      const p = listParams(c, c.req.valid("query"));
      const tenantId = await tenantForDomain(c.var.db, p.domain);
      const { rows, totalCount } = await queryPublicObjectives(c.var.db, tenantId, p);
      return c.json(toList(rows.map(toPublicObjective), totalCount));
    },
  );

  r.get(
    "/public/open-catalog/objectives/:id",
    op({ summary: "One public course", auth: "none", response: publicObjectiveDetailSchema }),
    validParams(idParams),
    validQuery(catalogDomainQuerySchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const tenantId = await tenantForDomain(c.var.db, c.req.valid("query").domain);
      const row = await loadPublicObjective(c.var.db, tenantId, id);
      if (!row) throw notFound("course");
      return c.json({ ...toPublicObjective(row), about: row.about } satisfies PublicObjectiveDetail);
    },
  );

  r.get(
    "/public/open-catalog/showcases",
    op({ summary: "Collections that contain public courses", auth: "none", response: listOf(showcaseSchema) }),
    validQuery(catalogDomainQuerySchema),
    async (c) => {
      const tenantId = await tenantForDomain(c.var.db, c.req.valid("query").domain);
      return c.json({ data: await showcasesFor(c.var.db, publicScope(tenantId)) });
    },
  );

  r.get(
    "/public/open-catalog/filter-categories",
    op({ summary: "Filter categories used by public courses", auth: "none", response: filterCategorySchema.array() }),
    validQuery(catalogDomainQuerySchema),
    async (c) => {
      const tenantId = await tenantForDomain(c.var.db, c.req.valid("query").domain);
      return c.json(await categoriesFor(c.var.db, publicScope(tenantId)));
    },
  );

  // ---- Signed-in calls ----
  r.use("/users/*", requireUser);
  r.use("/objective-workflow-aggregates/*", requireUser);
  r.use("/objectives/*", requireUser);
  r.use("/grading-scales/*", requireUser);
  r.use("/create-self-enrollments", requireUser);
  r.use("/create-self-enrollments", limitWrites("enrolment"));
  for (const path of [
    "/users/me/objective-accesses/query",
    "/users/me/catalog-showcases",
    "/users/me/catalog-filter-categories",
  ])
    r.use(path, requireFeature("catalog"));

  // My courses (spec 7.2): the learner's aggregates, with the client's text filter and the standing conditions.
  r.get(
    "/objective-workflow-aggregates/query",
    op({
      summary: `My courses. ${LIST_QUERY}; filter = text expression (docs/decisions/006), always combined with the standing conditions of spec 7.2; select = comma-separated fields to return (objective.<field>, lastObjectiveWorkflow.<field> and lastObjectiveRecord.<field> for parts of those objects; id always; decisions 012, 038)`,
      response: listOf(aggregateSchema),
      repeatedQuery: COURSE_LIST_REPEATED,
    }),
    validQuery(courseListQuerySchema),
    async (c) => {
      const p = listParams(c, c.req.valid("query"));
      let filter: FilterNode | null = null;
      if (p.filter) {
        const parsed = parseFilter(p.filter);
        if (!parsed.ok) throw new ApiError(400, { filter: [message("invalidFilter", parsed.error)] });
        filter = parsed.tree;
      }
      let selection: AggregateSelection | null = null;
      if (p.select) {
        const parsed = parsedSelect(p.select);
        if (!parsed.ok) throw new ApiError(400, { select: [message("invalidSelect", parsed.error)] });
        selection = parsed.selection;
      }
      const { data, totalCount } = await queryAggregates(
        c.var.db,
        c.var.user.id,
        { ...p, filter, selection },
        c.var.now,
        c.var.counts,
      );
      return c.json(toList(data, totalCount));
    },
  );

  // The "separate query that selects termId for the user" (spec 7.2).
  r.get(
    "/users/me/objective-workflow-aggregates/term-ids",
    op({
      summary: "Term ids of the learner's courses (the term filter lists only these)",
      response: listOf(termSchema.shape.id),
      notShown: true,
    }),
    async (c) => c.json({ data: await termIdsOf(c.var.db, c.var.user.id) }),
  );

  r.get(
    "/objectives/:id/objective-workflow-aggregate",
    op({
      summary:
        "The learner's standing in one course, with its grading scale and the current attempt's newest proctoring session (docs/decisions/010)",
      response: aggregateSchema.extend({
        objectiveGradingScale: gradingScaleSchema.nullable(),
        lastProctoringSession: attemptProctoringSessionSchema.nullable(),
      }),
    }),
    validParams(idParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const agg = await loadAggregateFor(c.var.db, c.var.user.id, id, c.var.now);
      if (!agg) throw notFound("course");
      // The attempt's newest proctoring session rides along, so the course page needs no second round
      // trip to decide the proctor lock (docs/decisions/010-proctor-lock.md).
      const [[scale], session] = await Promise.all([
        agg.objective.gradingScaleId ? loadScales(c.var.db, [agg.objective.gradingScaleId]) : Promise.resolve([]),
        agg.lastObjectiveWorkflow
          ? lastProctoringSessionOf(c.var.db, agg.lastObjectiveWorkflow.id)
          : Promise.resolve(null),
      ]);
      return c.json({ ...agg, objectiveGradingScale: scale ?? null, lastProctoringSession: session });
    },
  );

  r.get("/users/me/terms", op({ summary: "Terms of the tenant", response: listOf(termSchema) }), async (c) =>
    c.json({ data: await termsOf(c.var.db, c.var.user.tenantId) }),
  );
  r.get(
    "/users/me/enrolled-showcases",
    op({ summary: "Collections of the learner's courses", response: listOf(showcaseSchema) }),
    async (c) => c.json({ data: await showcasesFor(c.var.db, enrolledScope(c.var.user.id)) }),
  );
  r.get(
    "/users/me/catalog-showcases",
    op({ feature: "catalog", summary: "Collections of catalog courses", response: listOf(showcaseSchema) }),
    async (c) => c.json({ data: await showcasesFor(c.var.db, catalogScope(c.var.user.tenantId)) }),
  );
  r.get(
    "/users/me/enrolled-filter-categories",
    op({ summary: "Filter categories of the learner's courses", response: filterCategorySchema.array() }),
    async (c) => c.json(await categoriesFor(c.var.db, enrolledScope(c.var.user.id))),
  );
  r.get(
    "/users/me/catalog-filter-categories",
    op({
      feature: "catalog",
      summary: "Filter categories of catalog courses",
      response: filterCategorySchema.array(),
    }),
    async (c) => c.json(await categoriesFor(c.var.db, catalogScope(c.var.user.tenantId))),
  );

  r.get(
    "/grading-scales/query",
    op({
      summary: "Grading scales of the caller's tenant by id",
      response: listOf(gradingScaleSchema),
      repeatedQuery: { id: "A grading scale id (uuid); repeatable, at most 100" },
    }),
    async (c) => {
      const ids = c.req.queries("id") ?? [];
      if (ids.length > 100 || !ids.every((i) => isUuid(i)))
        throw new ApiError(400, { id: [message("invalid", "id must be grading scale ids (uuid), at most 100.")] });
      // The caller's tenant only.
      const scales = await loadScales(c.var.db, ids, c.var.user.tenantId);
      return c.json({ data: scales });
    },
  );

  // Catalog (spec 7.2): courses available to the whole tenant, with whether the learner is enrolled.
  r.get(
    "/users/me/objective-accesses/query",
    op({
      feature: "catalog",
      summary: `Catalog: courses the tenant offers, with the learner's enrolment. ${LIST_QUERY}`,
      response: listOf(objectiveAccessSchema),
      repeatedQuery: COURSE_LIST_REPEATED,
    }),
    validQuery(courseListQuerySchema),
    async (c) => {
      const p = listParams(c, c.req.valid("query"));
      const { rows, totalCount } = await queryCatalogAccesses(c.var.db, c.var.user, p, c.var.counts);
      const gradeMap = gradeMapOf(rows.map((row) => row.g));
      const data = rows.map(({ access, o, aggId, r }) =>
        toObjectiveAccess(access, toObjective(o), aggId, toRecord(r, access, null, gradeMap, c.var.now)),
      );
      return c.json(toList(data, totalCount));
    },
  );

  // One course as the catalog shows it: the learner's own access first, else the tenant-wide one.
  r.get(
    "/users/me/objectives/:id/objective-access",
    op({ summary: "One course as the catalog shows it", response: objectiveAccessDetailSchema }),
    validParams(idParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const row = await loadObjectiveAccess(c.var.db, c.var.user, id);
      if (!row) throw notFound("course");
      const rec = toRecord(row.r, row.access, null, gradeMapOf([row.g]), c.var.now);
      const objective = { ...toObjective(row.o), about: row.o.about };
      return c.json(toObjectiveAccess(row.access, objective, row.aggId, rec) satisfies ObjectiveAccessDetail);
    },
  );

  // Spec 7.3 create-self-enrollments: body { id, objectiveAccessId }; idempotent by id.
  r.post(
    "/create-self-enrollments",
    op({ summary: "Add a course to my courses (idempotent by id)", command: true }),
    validJson(createSelfEnrollmentSchema),
    async (c) => {
      const body = c.req.valid("json");
      const user = c.var.user;
      return runCommand(c, { id: body.id, type: "create-self-enrollment", body }, (tx) =>
        createSelfEnrollment(tx, user, body),
      );
    },
  );

  return r;
}
