import { Hono } from "hono";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { runCommand } from "../commands/run";
import { productFeedback } from "../db/schema";
import { ApiError, message } from "../errors";
import { validJson } from "../validate";
import { operations } from "../openapi";
import { limitWrites } from "../limit-writes";
import { createFeedbackSchema } from "../../domain/contract/feedback";

/** Product feedback (spec 2.11, 7.1; issue 16 item 7): stored once per id. */
export function feedbackRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("/create-product-feedback", requireUser, limitWrites("feedback"));
  r.post(
    "/create-product-feedback",
    operations("feedback")({ summary: "Product feedback (spec 2.11), stored once per id", command: true }),
    validJson(createFeedbackSchema),
    async (c) => {
      const body = c.req.valid("json");
      const user = c.var.user;
      return runCommand(c, { id: body.id, type: "create-product-feedback", body }, async (tx) => {
        const [row] = await tx
          .insert(productFeedback)
          .values({
            id: body.id,
            tenantId: user.tenantId,
            userId: user.id,
            grade: body.grade,
            details: body.details,
            comment: body.comment,
            page: body.page ?? null,
            createdAt: c.var.now,
          })
          .onConflictDoNothing()
          .returning({ id: productFeedback.id });
        if (!row) throw new ApiError(409, { id: [message("commandIdReused", "This feedback id was already used.")] });
        return { id: row.id };
      });
    },
  );
  return r;
}
