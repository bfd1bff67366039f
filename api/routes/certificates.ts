import { Hono } from "hono";
import { z } from "zod";
import { CERTIFICATE_NUMBER_PATTERN } from "../../domain/certificates";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { ApiError, message, notFound } from "../errors";
import { toCertificateRecord, toPublicCertificate } from "../mappers/certificates";
import { loadCertificate, queryCertificates } from "../queries/certificates";
import { params, query, idParams } from "../validate";

const certificateQuerySchema = z.object({
  certificateNumber: z
    .string()
    .max(40)
    .regex(CERTIFICATE_NUMBER_PATTERN, "certificateNumber must look like LA-2026-000123.")
    .optional(),
  objectiveId: z.uuid("objectiveId must be a course id (uuid).").optional(),
  userId: z.uuid("userId must be a user id (uuid).").optional(),
  sort: z.enum(["-created"], "sort must be -created (newest first).").default("-created"),
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  take: z.coerce.number().int().min(1).max(100).default(50),
});

export function certificateRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("/certificate-records/*", requireUser);

  // Spec 7.6: the signed-in learner's certificates, by number or by course (and user), newest first.
  // Another learner's certificates are never listed: a userId other than the caller's finds nothing.
  r.get("/certificate-records/query", async (c) => {
    const q = query(c, certificateQuerySchema);
    if (!q.certificateNumber && !q.objectiveId) {
      throw new ApiError(400, {
        "": [message("invalidFilter", "Filter by certificateNumber, or by objectiveId (and userId).")],
      });
    }
    const me = c.var.user.id;
    if (q.userId && q.userId.toLowerCase() !== me) return c.json({ data: [] });
    const rows = await queryCertificates(c.var.db, me, q, { limit: q.take, offset: q.skip }, c.var.now);
    return c.json({ data: rows.map((row) => toCertificateRecord(row.c, row.result)) });
  });

  // Spec 7.6 / 6: a certificate's public page needs no sign-in; it shows the holder's name only.
  r.get("/public/certificate-records/:id", async (c) => {
    const { id } = params(c, idParams);
    const row = await loadCertificate(c.var.db, id, c.var.now);
    if (!row) throw notFound("certificate");
    return c.json(toPublicCertificate(row));
  });

  return r;
}
