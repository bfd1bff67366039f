/**
 * Hand-in files (decision 048): a learner's files, and a grader's feedback file, read from a multipart
 * post with the chat attachments' defences (decision 027, 039) — the text fields come first and are
 * authorised before a byte of any file is read; each file is checked by size, name and contents; the
 * files go to the file store (a folder or a bucket, decision 037) under hand-ins/<hand-in id>/<file id>
 * inside the command's transaction, and are removed again when it does not commit.
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";
import type { z } from "zod";
import type { ApiEnv } from "../context";
import { ApiError, message, notFound, zodErrors } from "../errors";
import type { FileStore } from "./object-store";
import { sendStored } from "./send-file";
import {
  ATTACHMENT_KINDS,
  attachmentBodyLimit,
  attachmentDisplayName,
  checkAttachment,
  checkAttachmentCount,
  isAttachmentKind,
  tooLarge,
  type AttachmentRefusal,
  type AttachmentRules,
} from "../../domain/chat-attachments";
import { HAND_IN_FILES_FIELD, type HandInFile } from "../../domain/contract/hand-ins";
import { hasControlCharacters } from "../../domain/text";
import { multipartParts, readPart, type IncomingAttachment, type Part } from "./chat-attachments";

const HAND_IN_FILE_PATH = "/api/lms-storage/v1/hand-in-files";

const refusalMessage = (r: AttachmentRefusal) =>
  r.code === "attachmentTooLarge"
    ? message(r.code, `We support attaching files not bigger than ${r.params.size}`, r.params)
    : r.code === "attachmentType"
      ? message(r.code, `We support attaching only these types of files: ${r.params.types}`, r.params)
      : message(r.code, `Attach at most ${r.params.count} files.`, r.params);

const refuse = (r: AttachmentRefusal) => new ApiError(400, { [HAND_IN_FILES_FIELD]: [refusalMessage(r)] });

/**
 * A multipart command: its text fields (parsed by `schema`) and its files, each checked against the
 * rules `authorise` returns for the fields — called once, before the first file is read (or at the
 * end when there is none). `maxFiles` caps the files of this post (what the hand-in may still take).
 * Bad input is a 400 with field messages; a body past the largest allowed a 413.
 */
export async function readUpload<S extends z.ZodType>(
  c: Context<ApiEnv>,
  schema: S,
  ceiling: AttachmentRules,
  authorise: (fields: z.output<S>) => Promise<{ rules: AttachmentRules; room: number }>,
  /** Which parts are files (`files` by default), and a file's own rules within those `authorise` gave (decision 068). */
  fileParts: {
    accepts: (name: string) => boolean;
    rulesOf?: (name: string, rules: AttachmentRules) => AttachmentRules;
  } = {
    accepts: (name) => name === HAND_IN_FILES_FIELD,
  },
): Promise<{ fields: z.output<S>; files: (IncomingAttachment & { field: string })[]; fingerprint: unknown }> {
  const length = Number(c.req.header("content-length") ?? 0);
  if (length > attachmentBodyLimit(ceiling))
    throw new ApiError(413, { [HAND_IN_FILES_FIELD]: [refusalMessage(tooLarge(ceiling))] });
  const invalidForm = () => new ApiError(400, { "": [message("invalidForm", "The form could not be read.")] });
  const body = c.req.raw.body;
  if (!body) throw invalidForm();
  const parts = multipartParts(body, c.req.header("content-type") ?? "", {
    fieldNameSize: 100,
    fieldSize: 128 * 1024,
    fields: 30,
    files: ceiling.maxCount + 1,
    fileSize: ceiling.maxBytes + 1,
    parts: ceiling.maxCount + 31,
    headerPairs: 20,
  });
  const text: Record<string, string> = {};
  let checked: { fields: z.output<S>; rules: AttachmentRules; room: number } | null = null;
  const fieldsOnce = async () => {
    if (checked) return checked;
    const parsed = schema.safeParse(text);
    if (!parsed.success) throw new ApiError(400, zodErrors(parsed.error));
    const { rules, room } = await authorise(parsed.data);
    checked = { fields: parsed.data, rules, room };
    return checked;
  };
  const files: (IncomingAttachment & { field: string })[] = [];
  try {
    for (;;) {
      let part: Part | null;
      try {
        part = await parts.next();
      } catch (error) {
        if ((error as { code?: string }).code === "tooManyFiles")
          throw refuse(checkAttachmentCount(ceiling.maxCount + 1, ceiling)!);
        throw invalidForm();
      }
      if (!part) break;
      if (part.kind === "field") {
        if (hasControlCharacters(part.value.replace(/[\r\n\t]/g, "")))
          throw new ApiError(400, {
            "": [message("invalidCharacters", "The request holds control characters no text contains.")],
          });
        text[part.name] = part.value;
        continue;
      }
      if (!fileParts.accepts(part.name)) {
        part.stream.resume();
        continue;
      }
      const allowed = await fieldsOnce();
      const room = allowed.room;
      const rules = fileParts.rulesOf ? fileParts.rulesOf(part.name, allowed.rules) : allowed.rules;
      const bytes = await readPart(part.stream, rules.maxBytes);
      if (!bytes) throw refuse(tooLarge(rules));
      if (bytes.byteLength === 0 && part.filename === "") continue;
      if (files.length + 1 > room) throw refuse({ code: "attachmentCount", params: { count: rules.maxCount } });
      const name = attachmentDisplayName(part.filename);
      const verdict = checkAttachment({ name, size: bytes.byteLength, bytes }, rules);
      if ("refusal" in verdict) throw refuse(verdict.refusal);
      files.push({
        id: crypto.randomUUID(),
        name,
        size: bytes.byteLength,
        kind: verdict.kind,
        bytes,
        path: "",
        field: part.name,
      });
    }
  } catch (error) {
    parts.stop();
    throw error;
  }
  const { fields } = await fieldsOnce();
  const fingerprint = { ...(fields as object), files: files.map((f) => ({ name: f.name, sha256: sha256(f.bytes) })) };
  return { fields, files, fingerprint };
}

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("base64url");

/** The store's key of a hand-in's file. */
export const handInFileKey = (handInId: string, fileId: string) => `hand-ins/${handInId}/${fileId}`;

/** A stored file as the API hands it out. */
export function toHandInFile(row: { id: string; name: string; size: number; kind: string }): HandInFile {
  const kind = isAttachmentKind(row.kind) ? ATTACHMENT_KINDS[row.kind] : null;
  return {
    id: row.id,
    name: row.name,
    size: Number(row.size),
    type: kind ? kind.mime.split(";")[0] : "application/octet-stream",
    viewable: kind ? kind.image || row.kind === "pdf" : false,
    url: `${HAND_IN_FILE_PATH}/${row.id}`,
  };
}

/** How a hand-in file is served: its checked type; PDF and images inline (the viewer), the rest downloads. */
function handInFileHeaders(row: { name: string; kind: string }): Record<string, string> {
  const kind = isAttachmentKind(row.kind) ? ATTACHMENT_KINDS[row.kind] : null;
  const inline = kind ? kind.image || row.kind === "pdf" : false;
  const ascii = row.name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return {
    "Content-Type": kind?.mime ?? "application/octet-stream",
    "Content-Disposition": `${inline ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(row.name)}`,
    // Chromium's PDF viewer does not open a sandboxed document; a PDF runs no script of the page either way.
    "Content-Security-Policy":
      row.kind === "pdf" ? "default-src 'none'; img-src 'self'" : "default-src 'none'; img-src 'self'; sandbox",
    "Cache-Control": "private, max-age=300",
  };
}

/**
 * Answers a learner's kept file (a hand-in's, a test upload's) that the caller may read: 404 when the
 * store has lost it, else its bytes with ranges (`sendStored`) and the headers of its kind.
 */
export async function sendKeptFile(
  c: Context,
  store: FileStore,
  row: { storageKey: string; name: string; kind: string },
): Promise<Response> {
  const found = await store.stat(row.storageKey);
  if (!found) throw notFound("file");
  return sendStored(c, { store, key: row.storageKey, size: found.size }, handInFileHeaders(row));
}
