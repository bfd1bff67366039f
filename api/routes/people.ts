import { Hono } from "hono";
import type { ApiEnv } from "../context";
import { requireRole, requireUser } from "../auth";
import { limitWrites } from "../limit-writes";
import { ApiError, message } from "../errors";
import { operations } from "../openapi";
import { importPeopleCsv } from "../people/import";

const op = operations("people");

/**
 * Issue 50 item 3 (decision 049): an HR system sends the same CSV files as `npm run people -- import`,
 * `POST /api/people/v1/imports[?apply=true]` with the file as a text/csv body, signed in as an
 * administrator of the tenant the people are imported into. The answer is the import's report: 200 with
 * what was (or, without apply, would be) made and changed, or 422 with every problem by line.
 */
export function peopleRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("*", requireUser);
  r.use("/imports", limitWrites("packageImport"));
  r.post(
    "/imports",
    op({
      summary: "Check, and with ?apply=true import, a CSV file of people or of enrolments; administrators only",
      description:
        "The file is the body (text/csv; people: email, first_name, middle_name, last_name, locale, time_zone, roles, units, external_id; enrolments: course_code, email or external_id, mandatory, due_date, availability_date, availability_end_date, term, retake). One transaction: a file with a problem writes nothing and is answered 422 with each problem's line.",
      body: { type: "text/csv", description: "The CSV file" },
      answer: { status: 200, type: "application/json", description: "The import's report" },
      errors: { 403: "Not an administrator", 422: "Problems in the file, by line" },
      notShown: true,
    }),
    async (c) => {
      await requireRole(c.var.db, c.var.user.id, ["Administrator"], "Only administrators import people.");
      const type = c.req.header("content-type") ?? "";
      if (!/^text\/(csv|plain)\b/i.test(type))
        throw new ApiError(415, { "": [message("unsupportedMediaType", "Send the file as text/csv.")] });
      const report = await importPeopleCsv(c.var.db, await c.req.text(), {
        apply: c.req.query("apply") === "true",
        tenantId: c.var.user.tenantId,
      });
      return c.json(report, report.problems.length ? 422 : 200);
    },
  );
  return r;
}
