import { Hono } from "hono";
import { extname } from "node:path";
import { eq } from "drizzle-orm";
import type { ApiEnv } from "../context";
import { activities } from "../db/schema";
import { openActivityRefusal } from "../queries/activity-access";
import { requireUser } from "../auth";
import { ApiError, message, notFound } from "../errors";
import { idParams, validParams } from "../validate";
import { z } from "zod";
import type { Context, MiddlewareHandler } from "hono";
import { certificateFilePathSchema, publicCertificateFilePathSchema } from "../../domain/contract/certificates";
import { operations } from "../openapi";
import { normalizeCertificateNumber } from "../../domain/certificates";
import { ensureCertificateFiles } from "../files/certificate-files";
import { sendStored } from "../files/send-file";
import { fileStore, storageRoots } from "../files/roots";
import { firstHolding, type FileStore } from "../files/object-store";
import { countLookup, evenly } from "../public-lookups";
import { loadCertificateByNumber, loadOwnCertificate, type CertificateRow } from "../queries/certificates";

const op = operations("files");
/**
 * A file of an activity's SCORM package on the content origin: the grant (checked by the handler: a
 * garbled one is refused as an expired one, 403), and the file's path inside the package.
 */
const scormContentParams = z.object({ token: z.string().max(200), path: z.string() });
/** Counts a public lookup per address before anything else. */
const countedLookup: MiddlewareHandler<ApiEnv> = async (c, next) => {
  await countLookup(c);
  await next();
};
import { ObjectiveState } from "../../domain/vocabulary";
import { isSafeEntryName } from "../../domain/scorm";
import { scormDir } from "../scorm/import";
import { contentKeyOf, verifyContentGrant } from "../scorm/content-token";
import { contentType } from "mime-types";
import { attachmentHeaders } from "../files/chat-attachments";
import { hubMember, readableAttachment } from "../queries/chat";

/**
 * Spec 7.5 files: private activity files, only to learners with a standing in a course that
 * contains the activity; range requests (206) for PDF viewers and media; HEAD reads the size. The
 * files are in the API's store (a folder or a bucket: decision 037); the access checks come first.
 */
export function storageRoutes() {
  const r = new Hono<ApiEnv>();
  /** A stored file with its size, or 404. */
  const stored = async (stores: FileStore[], key: string) => {
    const found = await firstHolding(stores, key);
    if (!found) throw notFound("file");
    return { store: found.store, key, size: found.size };
  };
  r.use("/activities/*", requireUser);
  r.use("/certificate-records/*", requireUser);

  // A certificate's files — the holder's own (the preview) and the public share form's.
  const certificateFile = async (c: Context<ApiEnv>, row: CertificateRow | undefined, kind: "pdf" | "png") => {
    if (!row) throw notFound("certificate");
    const store = fileStore(c.var.deps);
    const paths = await ensureCertificateFiles(
      c.var.db,
      { store, appUrl: c.var.deps.appUrl ?? "http://localhost:3000" },
      row,
    );
    const file = await stored([store], paths[kind]);
    const name = `certificate-${row.c.certificateNumber}.${kind}`;
    return sendStored(c, file, {
      "Content-Type": kind === "pdf" ? "application/pdf" : "image/png",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, max-age=300",
    });
  };
  r.on(
    ["GET", "HEAD"],
    "/certificate-records/:id/:kind{pdf|png}",
    op({ summary: "The holder's own certificate as PDF or PNG (the preview)", file: true }),
    validParams(certificateFilePathSchema),
    async (c) => {
      const { id, kind } = c.req.valid("param");
      return certificateFile(c, await loadOwnCertificate(c.var.db, c.var.user.id, id, c.var.now), kind);
    },
  );
  r.on(
    ["GET", "HEAD"],
    "/public/certificates/:number/:kind{pdf|png}",
    op({
      summary: "A certificate as PDF or PNG by its public number (the share page's download); limited per address",
      auth: "none",
      file: true,
      errors: { 429: "Too many lookups from this address" },
    }),
    countedLookup,
    validParams(publicCertificateFilePathSchema),
    async (c) => {
      const { number, kind } = c.req.valid("param");
      const normalized = normalizeCertificateNumber(number);
      const row = await evenly(async () =>
        normalized ? loadCertificateByNumber(c.var.db, normalized, c.var.now) : undefined,
      );
      return certificateFile(c, row, kind);
    },
  );

  // Issue 15, issue 29 item 1 (decision 040): the files of an activity's SCORM package, read by the
  // content origin — which carries no session — under the grant the runtime answer gave the learner
  // (api/scorm/content-token.ts): the grant names the package, the activity and the learner; the
  // activity must still run that package and still be open to that learner, as for any content.
  // `:path{.+}` is the rest of the path, slashes included; the handler reads it raw (decoded once, checked).
  r.on(
    ["GET", "HEAD"],
    "/scorm-content/:token/:path{.+}",
    op({
      summary:
        "A file of an activity's SCORM package for the content origin (issue 29 item 1, decision 040): no session; the signed grant of the runtime answer names package, activity and learner, expires, and the activity must still be open to the learner (ranges, media types)",
      auth: "none",
      file: true,
      notShown: true,
      errors: { 403: "The grant is garbled, forged or expired, or the activity is not open to its learner" },
    }),
    validParams(scormContentParams),
    async (c) => {
      const { token } = c.req.valid("param");
      const grant = verifyContentGrant(contentKeyOf(c.var.deps), token, c.var.now);
      if (!grant) throw new ApiError(403, { "": [message("forbidden", "This link to the package has expired.")] });
      const prefix = `/scorm-content/${token}/`;
      const at = c.req.path.indexOf(prefix);
      let relative: string;
      try {
        relative = decodeURIComponent(c.req.path.slice(at + prefix.length));
      } catch {
        throw notFound("file");
      }
      if (at < 0 || !isSafeEntryName(relative)) throw notFound("file");
      const db = c.var.db;
      const [activity] = await db.select().from(activities).where(eq(activities.id, grant.activityId)).limit(1);
      const packageId = (activity?.content as { scorm?: { packageId?: string } } | undefined)?.scorm?.packageId;
      if (!activity || packageId !== grant.packageId) throw notFound("file");
      const { found, refusal } = await openActivityRefusal(db, grant.userId, { activityId: activity.id }, c.var.now);
      if (!found || activity.state === ObjectiveState.draft || activity.state === ObjectiveState.archived)
        throw new ApiError(403, { "": [message("forbidden", "You do not have permission to view this file.")] });
      if (refusal) throw refusal;
      const file = await stored([fileStore(c.var.deps)], `${scormDir(packageId)}/${relative}`);
      return sendStored(c, file, {
        // By the name's extension: mime-types' contentType() takes anything with a "/" for a media type.
        "Content-Type": contentType(extname(relative)) || "application/octet-stream",
        "Cache-Control": "private, max-age=300",
      });
    },
  );

  // Issue 16 item 3: a chat message's file, to the members of its course's hub only (anyone else, and
  // any file of a deleted message: 404); HEAD reads its size (spec 7.5), ranges resume downloads.
  r.use("/chat-attachments/*", requireUser);
  r.on(
    ["GET", "HEAD"],
    "/chat-attachments/:id",
    op({
      summary:
        "A chat message's file, to the members of the course's hub only (404 to anyone else and once the message is deleted); images inline, other files as attachment; HEAD reads its size (spec 7.5)",
      file: true,
      notShown: true,
    }),
    validParams(idParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const row = await readableAttachment(c.var.db, id, c.var.user.tenantId);
      if (!row) throw notFound("file");
      await hubMember(c.var.db, c.var.user, row.objectiveId);
      const file = await stored([fileStore(c.var.deps)], row.path);
      return sendStored(c, file, attachmentHeaders(row));
    },
  );

  r.on(
    ["GET", "HEAD"],
    "/activities/:id/file",
    op({
      summary: "A private activity file (range requests; HEAD for the size); 403 without access",
      file: true,
      notShown: true,
      errors: { 403: "The activity is not open to the caller (or locked: the lock reason's code)" },
    }),
    validParams(idParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const db = c.var.db;
      const [activity] = await db.select().from(activities).where(eq(activities.id, id)).limit(1);
      if (!activity || activity.state === ObjectiveState.archived || activity.tenantId !== c.var.user.tenantId)
        throw notFound("file");
      const content = activity.content as { path?: string; fileName?: string; mimeType?: string };
      if (!content.path) throw notFound("file");
      // A file is an activity's content: only learners with a standing in a course that contains it, and
      // only while the activity is open in their current attempt (spec 4.12, decision 018).
      const { found, refusal } = await openActivityRefusal(db, c.var.user.id, { activityId: id }, c.var.now);
      if (!found || activity.state === ObjectiveState.draft)
        throw new ApiError(403, { "": [message("forbidden", "You do not have permission to view this file.")] });
      if (refusal) throw refusal;
      const file = await stored(storageRoots(fileStore(c.var.deps)), content.path);
      return sendStored(c, file, {
        "Content-Type": content.mimeType ?? "application/octet-stream",
        "Cache-Control": "private, max-age=300",
        "Content-Disposition": `inline; filename="${(content.fileName ?? "file").replace(/["\\\r\n]/g, "_")}"`,
      });
    },
  );
  return r;
}
