import { Hono } from "hono";
import { rm } from "node:fs/promises";
import type { ApiEnv } from "../context";
import { requireRole, requireUser } from "../auth";
import { limitWrites } from "../limit-writes";
import { ApiError, message } from "../errors";
import { importCartridge } from "../cartridge/import";
import { registryOf } from "../lti/registry";
import { fileStore } from "../files/roots";
import { CartridgeError } from "../cartridge/manifest";
import { SCORM_LIMITS, saveUpload } from "../scorm/import";
import { ScormPackageError } from "../scorm/manifest";
import { operations } from "../openapi";

const op = operations("cartridges");
const AUTHORING_ROLES = ["Author", "Administrator"];

/**
 * Issue 50 item 1 (decision 049): `POST /api/lms/v1/cartridges[?code=CODE]` with an IMS Common Cartridge as
 * the body (application/zip, streamed to disk, at most SCORM_MAX_BYTES), for authors and administrators:
 * the course made or updated in place, and the import's report.
 */
export function cartridgeRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("/cartridges", requireUser);
  r.use("/cartridges", limitWrites("packageImport"));
  r.post(
    "/cartridges",
    op({
      summary:
        "Import an IMS Common Cartridge (1.1–1.3) as a course, or update the course with that code in place; authors and administrators only",
      description:
        "The cartridge is the body (application/zip). The answer is the import's report: what each item became, which LTI links launch a registered tool (matched by their launch URL's host), what was kept as not available yet and why. A refused cartridge (unsafe paths, a DOCTYPE, over the limits, no manifest) stores nothing: 400/413/422 with errors.cartridge[0].code",
      body: { type: "application/zip", description: "The cartridge (.imscc)" },
      answer: { status: 201, type: "application/json", description: "The import's report" },
      errors: { 403: "Not an author or administrator", 413: "Larger than the limit", 422: "Not a usable cartridge" },
      notShown: true,
    }),
    async (c) => {
      await requireRole(c.var.db, c.var.user.id, AUTHORING_ROLES, "Only authors and administrators import cartridges.");
      const code = c.req.query("code");
      if (code !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._:-]{0,59}$/.test(code))
        throw new ApiError(400, {
          code: [message("invalid", "A course code is letters, digits, '-', '.', '_' or ':'.")],
        });
      let zipPath: string | null = null;
      try {
        const limits = c.var.deps.scormLimits ?? SCORM_LIMITS;
        zipPath = await saveUpload(c.req.raw.body, limits.maxBytes);
        const tools = (await registryOf(c.var.deps)).all();
        const report = await importCartridge(c.var.db, {
          zipPath,
          code,
          tenantId: c.var.user.tenantId,
          limits,
          tools,
          store: fileStore(c.var.deps),
        });
        return c.json(report, 201);
      } catch (e) {
        if (e instanceof CartridgeError || e instanceof ScormPackageError)
          throw new ApiError(e.status, { cartridge: [message(e.code, e.message)] });
        throw e;
      } finally {
        if (zipPath) await rm(zipPath, { force: true });
      }
    },
  );
  return r;
}
