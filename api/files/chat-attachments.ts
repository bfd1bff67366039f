/**
 * Chat attachments (issue 16 item 3, decision 027): reading a message's files from a multipart post,
 * checking each (size, then type by name AND contents: domain/chat-attachments.ts) and keeping them
 * in the store (DATA_DIR/storage or a bucket, decision 037) under chat/<message id>/<attachment id>. The files are written inside the
 * command's transaction, after its rows: a failed write rolls the message back, and a failed commit
 * removes what was written (`removeStored`).
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";
import type { ApiEnv } from "../context";
import { ApiError, message, zodErrors } from "../errors";
import {
  ATTACHMENT_KINDS,
  attachmentBodyLimit,
  attachmentDisplayName,
  checkAttachment,
  checkAttachmentCount,
  DEFAULT_ATTACHMENT_RULES,
  isAttachmentKind,
  type AttachmentKind,
  type AttachmentRefusal,
  type AttachmentRules,
  tooLarge,
} from "../../domain/chat-attachments";
import {
  CHAT_ATTACHMENTS_FIELD,
  createChatMessageFieldsSchema,
  type ChatAttachment,
  type CreateChatMessage,
} from "../../domain/contract/chat";
import { hasControlCharacters } from "../../domain/text";
import type { FileStore } from "./object-store";

const CHAT_ATTACHMENT_PATH = "/api/lms-storage/v1/chat-attachments";

/** The rules of this API: its configuration's, else the defaults. */
export const attachmentRulesOf = (c: Context<ApiEnv>): AttachmentRules =>
  c.var.deps.chatAttachments ?? DEFAULT_ATTACHMENT_RULES;

/** A checked file, ready to be stored with its message. */
export interface IncomingAttachment {
  id: string;
  name: string;
  size: number;
  kind: AttachmentKind;
  bytes: Uint8Array;
  /** Relative to the storage root. */
  path: string;
}

const refusalMessage = (r: AttachmentRefusal) =>
  r.code === "attachmentTooLarge"
    ? message(r.code, `We support attaching files not bigger than ${r.params.size}`, r.params)
    : r.code === "attachmentType"
      ? message(r.code, `We support attaching only these types of files: ${r.params.types}`, r.params)
      : message(r.code, `Attach at most ${r.params.count} files to a message.`, r.params);

const refuse = (r: AttachmentRefusal) => new ApiError(400, { [CHAT_ATTACHMENTS_FIELD]: [refusalMessage(r)] });

/**
 * A create-chat-messages post as `multipart/form-data`: its text fields (the JSON command's) and its
 * files, each checked. An empty file part is no file (a form sends one when nothing was chosen). A
 * message needs text or a file. Bad input is a 400 with field messages (never a 500); a body past the
 * rules' limit a 413.
 */
export async function readChatUpload(
  c: Context<ApiEnv>,
  rules: AttachmentRules,
): Promise<{ fields: CreateChatMessage; files: IncomingAttachment[]; fingerprint: unknown }> {
  const length = Number(c.req.header("content-length") ?? 0);
  if (length > attachmentBodyLimit(rules))
    throw new ApiError(413, { [CHAT_ATTACHMENTS_FIELD]: [refusalMessage(tooLarge(rules))] });
  let form: FormData;
  try {
    form = await c.req.raw.formData();
  } catch {
    throw new ApiError(400, { "": [message("invalidForm", "The form could not be read.")] });
  }
  const text: Record<string, string> = {};
  for (const name of ["id", "objectiveId", "channel", "body"]) {
    const value = form.get(name);
    if (typeof value !== "string") continue;
    if (hasControlCharacters(value))
      throw new ApiError(400, {
        "": [message("invalidCharacters", "The request holds control characters no text contains.")],
      });
    text[name] = value;
  }
  const parsed = createChatMessageFieldsSchema.safeParse(text);
  if (!parsed.success) throw new ApiError(400, zodErrors(parsed.error));
  const parts = form.getAll(CHAT_ATTACHMENTS_FIELD).filter((p): p is File => typeof p !== "string");
  const chosen = parts.filter((f) => f.size > 0 || f.name !== "");
  const tooMany = checkAttachmentCount(chosen.length, rules);
  if (tooMany) throw refuse(tooMany);
  const files: IncomingAttachment[] = [];
  for (const file of chosen) {
    if (file.size > rules.maxBytes) throw refuse(tooLarge(rules));
    const bytes = new Uint8Array(await file.arrayBuffer());
    const name = attachmentDisplayName(file.name);
    const verdict = checkAttachment({ name, size: bytes.byteLength, bytes }, rules);
    if ("refusal" in verdict) throw refuse(verdict.refusal);
    const id = crypto.randomUUID();
    files.push({ id, name, size: bytes.byteLength, kind: verdict.kind, bytes, path: "" });
  }
  if (!parsed.data.body && files.length === 0)
    throw new ApiError(400, { body: [message("required", "Field is required")] });
  for (const f of files) f.path = `chat/${parsed.data.id}/${f.id}`;
  // The command's input as its fingerprint sees it: the fields and each file's name and contents.
  const fingerprint = {
    ...parsed.data,
    attachments: files.map((f) => ({ name: f.name, sha256: createHash("sha256").update(f.bytes).digest("base64url") })),
  };
  return { fields: parsed.data, files, fingerprint };
}

/**
 * Writes the files, each whole (a reader never sees half a file); every key goes into `written`
 * before its write, so a failure halfway can remove what was written.
 */
export async function storeAttachments(store: FileStore, files: IncomingAttachment[], written: string[]) {
  for (const f of files) {
    written.push(f.path);
    await store.put(f.path, f.bytes);
  }
}

/** Removes files written for a message that did not commit. */
export async function removeStored(store: FileStore, keys: string[]) {
  if (keys.length > 0) await store.delete(keys);
}

/** A stored attachment as messages carry it. */
export function toChatAttachment(row: { id: string; name: string; size: number; kind: string }): ChatAttachment {
  const kind = isAttachmentKind(row.kind) ? ATTACHMENT_KINDS[row.kind] : null;
  return {
    id: row.id,
    name: row.name,
    size: Number(row.size),
    type: kind ? kind.mime.split(";")[0] : "application/octet-stream",
    url: `${CHAT_ATTACHMENT_PATH}/${row.id}`,
  };
}

/**
 * The headers a stored attachment is served with: its checked media type; images inline, everything
 * else a download (RFC 6266 filename with the UTF-8 form for non-ASCII names); a sandbox that runs nothing.
 */
export function attachmentHeaders(row: { name: string; kind: string }): Record<string, string> {
  const kind = isAttachmentKind(row.kind) ? ATTACHMENT_KINDS[row.kind] : null;
  const ascii = row.name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const disposition = kind?.image ? "inline" : "attachment";
  return {
    "Content-Type": kind?.mime ?? "application/octet-stream",
    "Content-Disposition": `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(row.name)}`,
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; sandbox",
    "Cache-Control": "private, max-age=300",
  };
}
