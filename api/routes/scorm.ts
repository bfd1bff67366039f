import { Hono } from "hono";
import { rm } from "node:fs/promises";
import type { ApiEnv } from "../context";
import { requireRole, requireUser } from "../auth";
import { limitWrites } from "../limit-writes";
import { ApiError, message } from "../errors";
import { fileStore } from "../files/roots";
import { importScormPackage, SCORM_LIMITS, saveUpload } from "../scorm/import";
import { ScormPackageError } from "../scorm/manifest";
import { loadScormRuntime } from "../scorm/runtime";
import { contentKeyOf } from "../scorm/content-token";
import { ownWorkflow } from "../queries/workflows";
import { validParams, validQuery } from "../validate";
import { operations } from "../openapi";
import { scormImportQuerySchema } from "../../domain/contract/scorm";
import { activityWorkflowPathSchema } from "../../domain/contract/lifecycle";

const op = operations("scorm");

/** Roles that may import content (authoring tools sign in as their author). */
const AUTHORING_ROLES = ["Author", "Administrator"];

/** A refused package as the API's error body: the reason's code and its message (nothing was stored). */
function packageRefusal(e: ScormPackageError): ApiError {
  return new ApiError(e.status, { package: [message(e.code, e.message)] });
}

/**
 * Issue 15 item 1: `POST /api/scorm/v1/packages?course=CODE[&activity=ID][&title=…]` with the zip as
 * the body (application/zip, streamed to disk, never buffered; at most SCORM_MAX_BYTES).
 */
export function scormRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("*", requireUser);
  // Every write is limited per user, before its body is read.
  r.use("/packages", limitWrites("packageImport"));
  r.post(
    "/packages",
    op({
      summary:
        "Import a SCORM 1.2 or 2004 package into a course's activity; authors and administrators only (issue 15)",
      description:
        "The zip is the body (application/zip, streamed to disk, at most SCORM_MAX_BYTES). A refused package (no manifest, unsafe paths, over the size limit, a missing launch file) stores nothing: 400/413/422 with errors.package[0].code",
      body: { type: "application/zip", description: "The package" },
      answer: { status: 201, type: "application/json", description: "The imported package and its activity" },
      errors: { 403: "Not an author or administrator", 413: "Larger than the limit", 422: "Not a usable package" },
      notShown: true,
    }),
    validQuery(
      scormImportQuerySchema,
      () => new ApiError(400, { course: [message("invalid", "Name the course by its code: ?course=CODE.")] }),
    ),
    async (c) => {
      const query = c.req.valid("query");
      await requireRole(c.var.db, c.var.user.id, AUTHORING_ROLES, "Only authors and administrators import packages.");
      let zipPath: string | null = null;
      try {
        const limits = c.var.deps.scormLimits ?? SCORM_LIMITS;
        zipPath = await saveUpload(c.req.raw.body, limits.maxBytes);
        const imported = await importScormPackage(c.var.db, {
          zipPath,
          store: fileStore(c.var.deps),
          tenantId: c.var.user.tenantId,
          courseCode: query.course,
          activityId: query.activity,
          title: query.title,
          limits,
        });
        return c.json(imported, 201);
      } catch (e) {
        if (e instanceof ScormPackageError) throw packageRefusal(e);
        throw e;
      } finally {
        if (zipPath) await rm(zipPath, { force: true });
      }
    },
  );
  // The player's data: the package's SCOs and what the learner left in each (resume).
  r.get(
    "/users/me/objective-workflows/:id/activity-workflows/:awId/runtime",
    op({
      summary:
        "A SCORM activity's package (its SCOs in order, launch paths, the manifest's values), what each SCO's next launch starts from (cmi.entry, attempt, data, total time), the learner's id and name, adl.data, and the grant (contentToken) under which the content origin serves the package's files (issue 30, decision 040)",
      notShown: true,
    }),
    validParams(activityWorkflowPathSchema),
    async (c) => {
      const p = c.req.valid("param");
      const wf = await ownWorkflow(c.var.db, c.var.user.id, p.id);
      return c.json(
        await loadScormRuntime(c.var.db, c.var.user, wf.id, p.awId, {
          contentKey: contentKeyOf(c.var.deps),
          now: c.var.now,
        }),
      );
    },
  );
  return r;
}
