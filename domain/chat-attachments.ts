/**
 * Chat attachments (spec 2.5, spec 5 'attachments', issue 16 item 3, decision 027): which files a chat
 * message may carry. The rules are the API's (it refuses) and the page's (it says so before sending);
 * the type of a file is read from its name AND confirmed by its first bytes, never taken from the
 * media type a browser declares. Pure: bytes in, verdicts out.
 */
import { formatFileSize } from "./courses";

/** The kinds of file a message may carry: names end in one of `extensions`, contents start like `mime`. */
export const ATTACHMENT_KINDS = {
  pdf: { extensions: ["pdf"], mime: "application/pdf", image: false },
  png: { extensions: ["png"], mime: "image/png", image: true },
  jpeg: { extensions: ["jpg", "jpeg"], mime: "image/jpeg", image: true },
  gif: { extensions: ["gif"], mime: "image/gif", image: true },
  webp: { extensions: ["webp"], mime: "image/webp", image: true },
  txt: { extensions: ["txt"], mime: "text/plain; charset=utf-8", image: false },
  docx: {
    extensions: ["docx"],
    mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    image: false,
  },
  xlsx: {
    extensions: ["xlsx"],
    mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    image: false,
  },
  pptx: {
    extensions: ["pptx"],
    mime: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    image: false,
  },
  zip: { extensions: ["zip"], mime: "application/zip", image: false },
} as const;
export type AttachmentKind = keyof typeof ATTACHMENT_KINDS;
const KINDS = Object.keys(ATTACHMENT_KINDS) as AttachmentKind[];

export const isAttachmentKind = (value: unknown): value is AttachmentKind =>
  typeof value === "string" && Object.hasOwn(ATTACHMENT_KINDS, value);

export interface AttachmentRules {
  /** The largest file, in bytes. */
  maxBytes: number;
  /** The most files one message carries. */
  maxCount: number;
  /** The kinds allowed, in the order the message lists them. */
  kinds: AttachmentKind[];
}

/** Issue 16 item 3: 10 MB, 3 files, every kind above (CHAT_ATTACHMENT_MAX_BYTES, …_MAX_COUNT, …_TYPES). */
export const DEFAULT_ATTACHMENT_RULES: AttachmentRules = { maxBytes: 10 * 1024 * 1024, maxCount: 3, kinds: KINDS };

/**
 * The configured kinds ("pdf,png,jpg"): names of kinds or their extensions, any case. An unknown name
 * is an error (a typo must not silently allow nothing); empty → null (the defaults).
 */
export function parseAttachmentKinds(value: string | undefined): AttachmentKind[] | null {
  if (!value?.trim()) return null;
  const out: AttachmentKind[] = [];
  for (const raw of value.split(",")) {
    const name = raw.trim().toLowerCase().replace(/^\./, "");
    if (!name) continue;
    const kind = KINDS.find((k) => k === name || (ATTACHMENT_KINDS[k].extensions as readonly string[]).includes(name));
    if (!kind) throw new Error(`unknown attachment type "${raw.trim()}" (known: ${KINDS.join(", ")})`);
    if (!out.includes(kind)) out.push(kind);
  }
  return out.length ? out : null;
}

/** The `{types}` of spec 5's message and the hint: the kinds' names, e.g. "pdf, png, jpeg". */
export const attachmentTypesText = (kinds: readonly AttachmentKind[]) => kinds.join(", ");

/**
 * Decision 068: the kinds of `kinds` a QTI upload's MIME types ask for ("application/pdf", "image/*"); no
 * types asks for every kind. Types the product does not take narrow nothing: they are left out.
 */
export function kindsOfMimeTypes(types: readonly string[], kinds: readonly AttachmentKind[]): AttachmentKind[] {
  if (types.length === 0) return [...kinds];
  return kinds.filter((k) => {
    const mime = ATTACHMENT_KINDS[k].mime.split(";")[0]!;
    return types.some((t) => t === mime || (t.endsWith("/*") && mime.startsWith(t.slice(0, -1))));
  });
}

/** The file input's `accept`: every extension of the allowed kinds (".pdf,.png,.jpg,.jpeg"). */
export const attachmentAccept = (kinds: readonly AttachmentKind[]) =>
  kinds.flatMap((k) => ATTACHMENT_KINDS[k].extensions.map((e) => `.${e}`)).join(",");

/** The kind a file name claims by its extension, or null. */
export function kindOfName(name: string): AttachmentKind | null {
  const dot = name.lastIndexOf(".");
  if (dot < 0) return null;
  const ext = name.slice(dot + 1).toLowerCase();
  return KINDS.find((k) => (ATTACHMENT_KINDS[k].extensions as readonly string[]).includes(ext)) ?? null;
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);
const ascii = (s: string) => [...s].map((ch) => ch.charCodeAt(0));

/**
 * The names of a zip archive's entries, from its central directory (found through the end record in
 * the last 64 KB); null when the bytes are not a readable zip. No entry is inflated.
 */
function zipEntryNames(bytes: Uint8Array): string[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const names: string[] = [];
  const decoder = new TextDecoder();
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return null;
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    if (at + 46 + nameLength > bytes.length) return null;
    names.push(decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)));
    at += 46 + nameLength + extra + comment;
  }
  return names;
}

/** Office Open XML documents are zips whose parts name the application. */
function officeKind(names: readonly string[]): AttachmentKind | null {
  if (!names.includes("[Content_Types].xml")) return null;
  if (names.some((n) => n.startsWith("word/"))) return "docx";
  if (names.some((n) => n.startsWith("xl/"))) return "xlsx";
  if (names.some((n) => n.startsWith("ppt/"))) return "pptx";
  return null;
}

/** Plain text: UTF-8 (a BOM allowed) without control characters other than tab, line breaks and form feed. */
function isPlainText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}

/** What a file's contents are, by their first bytes (and a zip's entry names), or null. */
export function sniffKind(bytes: Uint8Array): AttachmentKind | null {
  if (startsWith(bytes, ascii("%PDF-"))) return "pdf";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  if (startsWith(bytes, ascii("PK\x03\x04")) || startsWith(bytes, ascii("PK\x05\x06"))) {
    const names = zipEntryNames(bytes);
    if (!names) return null;
    return officeKind(names) ?? "zip";
  }
  if (bytes.length > 0 && isPlainText(bytes)) return "txt";
  return null;
}

/** A refusal, as a message code of `apiErrors.*` with its parameters (spec 5's two texts, and the count). */
export type AttachmentRefusal =
  | { code: "attachmentTooLarge"; params: { size: string } }
  | { code: "attachmentType"; params: { types: string } }
  | { code: "attachmentCount"; params: { count: number } };

export const tooLarge = (rules: AttachmentRules): AttachmentRefusal => ({
  code: "attachmentTooLarge",
  params: { size: formatFileSize(rules.maxBytes) },
});
const wrongType = (rules: AttachmentRules): AttachmentRefusal => ({
  code: "attachmentType",
  params: { types: attachmentTypesText(rules.kinds) },
});

/**
 * One file against the rules: not larger than `maxBytes` (an empty file is no file), a name whose
 * extension is an allowed kind, and contents of that kind — a zip's extension takes any zip (an Office
 * document is one). Returns the file's kind, or the refusal.
 */
export function checkAttachment(
  file: { name: string; size: number; bytes: Uint8Array },
  rules: AttachmentRules,
): { kind: AttachmentKind } | { refusal: AttachmentRefusal } {
  if (file.size > rules.maxBytes) return { refusal: tooLarge(rules) };
  const claimed = kindOfName(file.name);
  if (!claimed || !rules.kinds.includes(claimed) || file.size === 0) return { refusal: wrongType(rules) };
  const actual = sniffKind(file.bytes);
  const zipFamily = (k: AttachmentKind | null) => k === "zip" || k === "docx" || k === "xlsx" || k === "pptx";
  const matches = actual === claimed || (claimed === "zip" && zipFamily(actual));
  return matches ? { kind: claimed } : { refusal: wrongType(rules) };
}

/** Too many files for one message. */
export function checkAttachmentCount(count: number, rules: AttachmentRules): AttachmentRefusal | null {
  return count > rules.maxCount ? { code: "attachmentCount", params: { count: rules.maxCount } } : null;
}

/**
 * The name a file is shown and downloaded by: its last path segment (some browsers send "C:\\…"),
 * without control characters, at most 200 characters (its extension kept).
 */
export function attachmentDisplayName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim();
  if (base.length <= 200) return base || "file";
  const dot = base.lastIndexOf(".");
  const ext = dot > 0 && base.length - dot <= 10 ? base.slice(dot) : "";
  return base.slice(0, 200 - ext.length) + ext;
}

/**
 * The body a message's post may be at most, whole (the HTTP front's limit for the chat's paths):
 * every file at its largest, plus room for the text and the form's framing.
 */
export const attachmentBodyLimit = (rules: AttachmentRules) => rules.maxCount * rules.maxBytes + 256 * 1024;
