/**
 * Names and Role Provisioning Services 2.0 under /api/lti/v1/grading (issue 14 item 4, issue 32 item 3;
 * decisions 023, 041): a course's membership for a tool of the course — learners enrolled (Active, or
 * Inactive once their enrolment ended) and instructors — filtered by `role`, paged by `limit` with a
 * `Link: rel="next"` header, and a `rel="differences"` link for what changes after this answer (`since`).
 * Names and e-mail addresses reach a tool only as its privacy level allows (`personalClaims`).
 */
import { Hono } from "hono";
import { LTI_MEDIA_TYPE, LTI_SCOPE, membershipRoles, nrpsRoleFilter, personalClaims } from "../../domain/lti";
import type { ApiEnv } from "../context";
import { ApiError, message, notFound } from "../errors";
import { contextUrl, linkHeader, publicUrl, serviceTool } from "../lti/service-calls";
import { contextMembers, serviceContext, toolLinks } from "../queries/lti";
import { validParams, validQuery } from "../validate";
import { operations } from "../openapi";
import { ltiContextPathSchema, ltiMembershipQuerySchema } from "../../domain/contract/lti";

export function ltiNrpsRoutes() {
  const r = new Hono<ApiEnv>();

  r.get(
    "/grading/contexts/:contextId/memberships",
    operations("lti")({
      summary:
        "NRPS 2.0: the course's members for a tool of the course (Active, or Inactive once the enrolment ended), by role, paged with Link rel=next and rel=differences",
      auth: "ltiService",
      answer: { type: LTI_MEDIA_TYPE.memberships, description: "The membership container" },
      errors: { 403: "The tool has no resource link in this course (ltiOtherDeployment)" },
    }),
    validParams(ltiContextPathSchema),
    validQuery(ltiMembershipQuerySchema),
    async (c) => {
      const { contextId } = c.req.valid("param");
      const q = c.req.valid("query");
      const tool = await serviceTool(c, [LTI_SCOPE.memberships]);
      const db = c.var.db;
      const [links, context] = await Promise.all([toolLinks(db, contextId, tool.key), serviceContext(db, contextId)]);
      if (!context) throw notFound("context");
      if (links.length === 0)
        throw new ApiError(403, {
          "": [message("ltiOtherDeployment", "The tool has no resource link in this course.")],
        });
      // A resource link's membership (NRPS §2.3.2) is the course's here: every member may open every link.
      if (q.rlid !== undefined && !links.some((l) => l.part.id === q.rlid)) throw notFound("resource link");
      // A role no member has here (any role but Learner and Instructor) lists nobody.
      const role = q.role === undefined ? undefined : nrpsRoleFilter(q.role);
      const rows =
        role === null
          ? []
          : await contextMembers(db, context, {
              after: q.after,
              limit: q.limit,
              role,
              since: q.since ? new Date(q.since) : undefined,
              now: c.var.now,
            });
      const page = rows.slice(0, q.limit);
      const rels: [string, string][] = [];
      if (rows.length > q.limit) {
        const next = publicUrl(c);
        next.searchParams.set("after", page.at(-1)!.id);
        rels.push(["next", next.toString()]);
      }
      // What changes from now on: the same query, without paging, since this answer.
      const differences = publicUrl(c);
      differences.searchParams.delete("after");
      differences.searchParams.set("since", c.var.now.toISOString());
      rels.push(["differences", differences.toString()]);
      c.header("Link", linkHeader(rels)!);
      c.header("Content-Type", LTI_MEDIA_TYPE.memberships);
      return c.body(
        JSON.stringify({
          id: `${contextUrl(c, contextId)}/memberships`,
          context: { id: context.id, label: context.code, title: context.name },
          members: page.map((m) => ({
            status: m.learner && m.ended && !m.instructor ? "Inactive" : "Active",
            user_id: m.id,
            // The names and e-mail only as far as the tool's privacy level allows (issue 52 item 6).
            ...personalClaims(tool.privacy, m),
            roles: membershipRoles({ learner: m.learner, instructor: m.instructor }),
          })),
        }),
      );
    },
  );

  return r;
}
