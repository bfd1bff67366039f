/**
 * Decision 068: the files a learner sends as a QTI upload interaction's answer. They come in the page's save
 * as a multipart post (the hand-ins' reader, limits and defences, decision 048), one file part per upload
 * named `file::<item ref>::<response>`; each is checked against the hand-in rules narrowed to the kinds the
 * interaction's MIME types ask for, stored in the file store under assessment-answers/<attempt>/<file id>,
 * and its row's id becomes the answer's value. A new file replaces the one before (its bytes go after the
 * commit). Only the attempt's learner and the graders of her tenant read it.
 */
import { and, eq, inArray, ne } from "drizzle-orm";
import {
  ATTACHMENT_KINDS,
  isAttachmentKind,
  kindsOfMimeTypes,
  type AttachmentRules,
} from "../../domain/chat-attachments";
import { AttemptState, answerFileTarget, type AnswerFile } from "../../domain/contract/assessment";
import { interactionsOf, type AssessmentItem, type Interaction } from "../../domain/qti/item";
import type { RawResponses } from "../../domain/qti/responses";
import type { Principal } from "../context";
import type { Db, Tx } from "../db/client";
import { assessmentAttempts, assessmentFiles, qtiPackages, userRoles } from "../db/schema";
import { ApiError, message } from "../errors";
import type { IncomingAttachment } from "../files/chat-attachments";
import { sha256 } from "../files/hand-in-files";

type Upload = Extract<Interaction, { type: "upload" }>;
export type IncomingAnswerFile = IncomingAttachment & { ref: string; response: string };

const ASSESSMENT_FILE_PATH = "/api/lms-storage/v1/assessment-files";
const GRADERS = ["Instructor", "Administrator"];

/** The store's key of an answer's file. */
const answerFileKey = (attemptId: string, fileId: string) => `assessment-answers/${attemptId}/${fileId}`;

function toAnswerFile(row: { id: string; name: string; size: number; kind: string }): AnswerFile {
  const kind = isAttachmentKind(row.kind) ? ATTACHMENT_KINDS[row.kind] : null;
  return {
    id: row.id,
    name: row.name,
    size: Number(row.size),
    type: kind ? kind.mime.split(";")[0]! : "application/octet-stream",
    url: `${ASSESSMENT_FILE_PATH}/${row.id}`,
  };
}

const uploadsOf = (item: AssessmentItem) => interactionsOf(item).filter((i): i is Upload => i.type === "upload");

const notOnPage = (field: string) =>
  new ApiError(400, { [field]: [message("assessmentNotOnPage", "This question is not on this page.")] });

/**
 * What `readUpload` needs of a page before reading a byte of its files: how many uploads it has (the room),
 * and each file part's rules — the hand-in ceiling narrowed to its interaction's kinds; a part that names no
 * upload of the page is a 400.
 */
export function pageUploadRules(items: { ref: string; item: AssessmentItem }[]) {
  const uploads = new Map(items.map((i) => [i.ref, uploadsOf(i.item)]));
  const room = [...uploads.values()].reduce((n, list) => n + list.length, 0);
  const rulesOf = (field: string, rules: AttachmentRules): AttachmentRules => {
    const target = answerFileTarget(field);
    const upload = target && uploads.get(target.ref)?.find((u) => u.response === target.response);
    if (!target || !upload) throw notOnPage(`answers.${target?.ref ?? field}`);
    return { ...rules, kinds: kindsOfMimeTypes(upload.types, rules.kinds) };
  };
  return { room, rulesOf };
}

/** The multipart reader's files with the answer each belongs to. */
export function answerFilesOf(files: (IncomingAttachment & { field: string })[]): IncomingAnswerFile[] {
  return files.map((f) => ({ ...f, ...answerFileTarget(f.field)! }));
}

/**
 * Saving a page: each upload's value in `raw` made the stored file's id — a new file replaces it; no value
 * keeps it; an empty list clears it; any other value is refused (a client cannot name a file it did not
 * send here). Writes the new rows and deletes the replaced ones; answers the keys whose bytes go once the
 * transaction commits.
 */
export async function mergeUploads(
  tx: Tx,
  attemptId: string,
  answers: Record<string, RawResponses>,
  items: Map<string, AssessmentItem>,
  files: IncomingAnswerFile[],
  stored: Map<string, RawResponses>,
): Promise<string[]> {
  const refs = [...items.keys()].filter((ref) => uploadsOf(items.get(ref)!).length > 0);
  if (refs.length === 0) return [];
  const rows = await tx
    .select()
    .from(assessmentFiles)
    .where(and(eq(assessmentFiles.attemptId, attemptId), inArray(assessmentFiles.itemRef, refs)));
  const rowOf = (ref: string, response: string) => rows.find((r) => r.itemRef === ref && r.response === response);
  const replaced: typeof rows = [];
  for (const f of files) {
    // A file sent without its item's other answers keeps those as they were stored.
    if (!(f.ref in answers)) answers[f.ref] = { ...(stored.get(f.ref) ?? {}) };
  }
  for (const [ref, raw] of Object.entries(answers)) {
    const item = items.get(ref);
    if (!item) continue;
    for (const u of uploadsOf(item)) {
      const before = rowOf(ref, u.response);
      const sent = files.find((f) => f.ref === ref && f.response === u.response);
      const given = raw[u.response];
      if (sent) {
        raw[u.response] = [sent.id];
        if (before) replaced.push(before);
      } else if (given === undefined) raw[u.response] = before ? [before.id] : [];
      else if (given.length === 0) {
        if (before) replaced.push(before);
      } else if (!before || given.length !== 1 || given[0] !== before.id)
        throw new ApiError(400, {
          [`answers.${ref}.${u.response}`]: [
            message("responseInvalid", "An upload's answer is the id of a file sent with it."),
          ],
        });
    }
  }
  if (replaced.length > 0)
    await tx.delete(assessmentFiles).where(
      inArray(
        assessmentFiles.id,
        replaced.map((r) => r.id),
      ),
    );
  for (const f of files) f.path = answerFileKey(attemptId, f.id);
  if (files.length > 0)
    await tx.insert(assessmentFiles).values(
      files.map((f) => ({
        id: f.id,
        attemptId,
        itemRef: f.ref,
        response: f.response,
        name: f.name,
        size: f.size,
        kind: f.kind,
        sha256: sha256(f.bytes),
        storageKey: f.path,
      })),
    );
  return replaced.map((r) => r.storageKey);
}

/** An attempt's answer files by item ref and response (one statement). */
export async function filesOfAttempt(db: Db | Tx, attemptId: string) {
  const rows = await db.select().from(assessmentFiles).where(eq(assessmentFiles.attemptId, attemptId));
  const out = new Map<string, Record<string, AnswerFile>>();
  for (const r of rows) out.set(r.itemRef, { ...out.get(r.itemRef), [r.response]: toAnswerFile(r) });
  return out;
}

/**
 * An answer's file for its reader: the attempt's learner, or a grader (Instructor or Administrator) of
 * the package's tenant once the attempt is submitted — never a grader's own attempt through the grader's
 * door. Null (the route's 404) for anyone else.
 */
export async function readableAnswerFile(db: Db, user: Principal, fileId: string) {
  const [row] = await db
    .select({
      f: assessmentFiles,
      userId: assessmentAttempts.userId,
      state: assessmentAttempts.state,
      tenantId: qtiPackages.tenantId,
    })
    .from(assessmentFiles)
    .innerJoin(assessmentAttempts, eq(assessmentAttempts.id, assessmentFiles.attemptId))
    .innerJoin(qtiPackages, eq(qtiPackages.id, assessmentAttempts.packageId))
    .where(eq(assessmentFiles.id, fileId))
    .limit(1);
  if (!row || row.tenantId !== user.tenantId) return null;
  if (row.userId === user.id) return row.f;
  if (row.state === AttemptState.inProgress) return null;
  const [grader] = await db
    .select({ role: userRoles.role })
    .from(userRoles)
    .where(and(eq(userRoles.userId, user.id), inArray(userRoles.role, GRADERS), ne(userRoles.userId, row.userId)))
    .limit(1);
  return grader ? row.f : null;
}
