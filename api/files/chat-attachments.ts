/**
 * Chat attachments (issue 16 item 3, decision 027): reading a message's files from a multipart post,
 * checking each (size, then type by name AND contents: domain/chat-attachments.ts) and keeping them
 * in the store (DATA_DIR/storage or a bucket, decision 037) under chat/<message id>/<attachment id>. The files are written inside the
 * command's transaction, after its rows: a failed write rolls the message back, and a failed commit
 * removes what was written (`removeStored`).
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { Busboy, type BusboyFileStream } from "@fastify/busboy";
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

/** A part of a multipart body, in the order it was sent. */
export type Part =
  | { kind: "field"; name: string; value: string }
  | { kind: "file"; name: string; filename: string; stream: BusboyFileStream };

/**
 * The parts of a `multipart/form-data` body one at a time, read from the stream only as they are
 * asked for (busboy, with limits): a file's bytes are not read before the caller takes its part.
 * `stop()` lets go of the rest of the body without reading it.
 */
export function multipartParts(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  limits: NonNullable<ConstructorParameters<typeof Busboy>[0]["limits"]>,
): { next(): Promise<Part | null>; stop(): void } {
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({ headers: { "content-type": contentType }, limits });
  } catch {
    // busboy throws at once on a content type it cannot read (no boundary, not multipart): the client's fault.
    void body.cancel().catch(() => {});
    throw new ApiError(400, {
      "": [message("invalid", "The body is not a multipart form with a boundary (multipart/form-data; boundary=…).")],
    });
  }
  const source = Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>);
  const queue: (Part | null | Error)[] = [];
  let waiting: ((item: Part | null | Error) => void) | null = null;
  const push = (item: Part | null | Error) => {
    if (waiting) {
      const resolve = waiting;
      waiting = null;
      resolve(item);
    } else queue.push(item);
  };
  const refused = (code: string) => () => push(Object.assign(new Error(code), { code }));
  parser.on("field", (name, value, nameTruncated, valueTruncated) =>
    nameTruncated || valueTruncated ? refused("fieldTooLong")() : push({ kind: "field", name, value }),
  );
  parser.on("file", (name, stream, filename) => push({ kind: "file", name, filename: filename ?? "", stream }));
  parser.on("filesLimit", refused("tooManyFiles"));
  parser.on("fieldsLimit", refused("tooManyFields"));
  parser.on("partsLimit", refused("tooManyFields"));
  parser.on("finish", () => push(null));
  parser.on("error", (error: Error) => push(error));
  source.on("error", (error: Error) => push(error));
  source.pipe(parser);
  return {
    next: () =>
      new Promise<Part | null>((resolve, reject) => {
        const settle = (item: Part | null | Error) => (item instanceof Error ? reject(item) : resolve(item));
        if (queue.length > 0) settle(queue.shift()!);
        else waiting = settle;
      }),
    // Unpiped and paused, not destroyed: what is left is never read (the front closes the connection).
    stop: () => {
      source.unpipe(parser);
      source.pause();
    },
  };
}

/** A file part's bytes, at most `max` (null when it has more). */
export async function readPart(stream: BusboyFileStream, max: number): Promise<Uint8Array | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      stream.resume();
      return null;
    }
    chunks.push(chunk);
  }
  return stream.truncated ? null : new Uint8Array(Buffer.concat(chunks, size));
}

const TEXT_FIELDS = new Set(["id", "objectiveId", "channel", "body"]);

/**
 * A create-chat-messages post as `multipart/form-data`: its text fields (the JSON command's) and its
 * files, each checked. The body is read as it arrives (issue 29 item 2): the text fields come first,
 * and `authorise` runs on them before a byte of any file is read — a caller who may not post there
 * (not a member, a read-only channel) is refused without the files being read at all. An empty file
 * part is no file (a form sends one when nothing was chosen). A message needs text or a file. Bad
 * input is a 400 with field messages (never a 500); a body past the rules' limit a 413.
 */
export async function readChatUpload(
  c: Context<ApiEnv>,
  rules: AttachmentRules,
  authorise: (fields: CreateChatMessage) => Promise<void>,
): Promise<{ fields: CreateChatMessage; files: IncomingAttachment[]; fingerprint: unknown }> {
  const length = Number(c.req.header("content-length") ?? 0);
  if (length > attachmentBodyLimit(rules))
    throw new ApiError(413, { [CHAT_ATTACHMENTS_FIELD]: [refusalMessage(tooLarge(rules))] });
  const invalidForm = () => new ApiError(400, { "": [message("invalidForm", "The form could not be read.")] });
  const body = c.req.raw.body;
  if (!body) throw invalidForm();
  const parts = multipartParts(body, c.req.header("content-type") ?? "", {
    fieldNameSize: 100,
    fieldSize: 64 * 1024,
    fields: 20,
    // One more than allowed, so that one too many is seen and refused with the spec's message.
    files: rules.maxCount + 1,
    fileSize: rules.maxBytes + 1,
    parts: rules.maxCount + 21,
    headerPairs: 20,
  });
  const text: Record<string, string> = {};
  let fields: CreateChatMessage | null = null;
  /** The text fields, checked and authorised once: before the first file, or at the end. */
  const fieldsOnce = async (): Promise<CreateChatMessage> => {
    if (fields) return fields;
    const parsed = createChatMessageFieldsSchema.safeParse(text);
    if (!parsed.success) throw new ApiError(400, zodErrors(parsed.error));
    await authorise(parsed.data);
    fields = parsed.data;
    return fields;
  };
  const files: IncomingAttachment[] = [];
  try {
    for (;;) {
      let part: Part | null;
      try {
        part = await parts.next();
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === "tooManyFiles") throw refuse(checkAttachmentCount(rules.maxCount + 1, rules)!);
        throw invalidForm();
      }
      if (!part) break;
      if (part.kind === "field") {
        if (!TEXT_FIELDS.has(part.name)) continue;
        if (hasControlCharacters(part.value))
          throw new ApiError(400, {
            "": [message("invalidCharacters", "The request holds control characters no text contains.")],
          });
        text[part.name] = part.value;
        continue;
      }
      if (part.name !== CHAT_ATTACHMENTS_FIELD) {
        part.stream.resume();
        continue;
      }
      await fieldsOnce();
      const bytes = await readPart(part.stream, rules.maxBytes);
      if (!bytes) throw refuse(tooLarge(rules));
      // A form sends an empty part without a name when nothing was chosen.
      if (bytes.byteLength === 0 && part.filename === "") continue;
      const tooMany = checkAttachmentCount(files.length + 1, rules);
      if (tooMany) throw refuse(tooMany);
      const name = attachmentDisplayName(part.filename);
      const verdict = checkAttachment({ name, size: bytes.byteLength, bytes }, rules);
      if ("refusal" in verdict) throw refuse(verdict.refusal);
      files.push({ id: crypto.randomUUID(), name, size: bytes.byteLength, kind: verdict.kind, bytes, path: "" });
    }
  } catch (error) {
    parts.stop();
    throw error;
  }
  const checked = await fieldsOnce();
  if (!checked.body && files.length === 0)
    throw new ApiError(400, { body: [message("required", "Field is required")] });
  for (const f of files) f.path = `chat/${checked.id}/${f.id}`;
  // The command's input as its fingerprint sees it: the fields and each file's name and contents.
  const fingerprint = {
    ...checked,
    attachments: files.map((f) => ({ name: f.name, sha256: createHash("sha256").update(f.bytes).digest("base64url") })),
  };
  return { fields: checked, files, fingerprint };
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
