/**
 * The demo's hand-ins (decision 048), made from the seeded attempts: every activity that takes a
 * hand-in and was done in a seeded attempt gets one — handed in and waiting (in grading, or done
 * without a score yet), or graded and released by the demo grader with a comment and a feedback file.
 * Activities of attempts in progress get none: the learner hands them in herself. A hand-in is late
 * when it came after its activity's due date. The files are small PDFs written here, kept in the file
 * store like any hand-in's.
 */
import { and, eq, inArray } from "drizzle-orm";
import * as s from "../api/db/schema";
import type { FileStore } from "../api/files/object-store";
import { handInFileKey, sha256 } from "../api/files/hand-in-files";
import { handInSettings, isLate } from "../domain/hand-ins";
import { DEFAULT_ATTACHMENT_RULES } from "../domain/chat-attachments";
import { ActivityWorkflowState } from "../domain/vocabulary";
import type { Tx } from "./seed-activities";

const TEXT = [
  "Summary: the analysis answers the question set in the brief with the data provided.",
  "Method: I cleaned the data first (missing values, duplicates), then compared the groups and checked the result against a simple baseline.",
  "Findings and next steps are in the attached PDF.",
].join("\n\n");

const COMMENT = [
  "A clear structure and a well-argued conclusion.",
  "Say more about the limits of the data: how would a larger sample change the result? My notes are in the attached file.",
].join("\n\n");

/** A one-page PDF 1.4 with a title and a line (Helvetica, not embedded), its offsets exact. */
function smallPdf(title: string, line: string): Uint8Array {
  const esc = (t: string) => t.replace(/[^\x20-\x7e]/g, "?").replace(/([\\()])/g, "\\$1");
  const stream = `BT /F1 18 Tf 64 760 Td (${esc(title)}) Tj ET\nBT /F1 11 Tf 64 730 Td (${esc(line)}) Tj ET\n`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}endstream`,
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, "latin1"));
}

export async function seedHandIns(tx: Tx, tenantId: string, store: FileStore, graderId: string | undefined) {
  const rows = await tx
    .select({
      aw: s.activityWorkflows,
      activity: s.activities,
      part: s.activityParts,
      rec: s.activityRecords,
      objective: s.objectives,
    })
    .from(s.activityWorkflows)
    .innerJoin(s.activityParts, eq(s.activityParts.id, s.activityWorkflows.activityPartId))
    .innerJoin(s.activities, eq(s.activities.id, s.activityParts.activityId))
    .innerJoin(s.objectives, eq(s.objectives.id, s.activityParts.objectiveId))
    .leftJoin(s.activityRecords, eq(s.activityRecords.activityWorkflowId, s.activityWorkflows.id))
    .where(
      and(
        eq(s.objectives.tenantId, tenantId),
        inArray(s.activityWorkflows.state, [ActivityWorkflowState.inGrading, ActivityWorkflowState.finished]),
      ),
    );
  for (const { aw, activity, part, rec, objective } of rows) {
    if (!handInSettings(activity, DEFAULT_ATTACHMENT_RULES) || aw.groupActivityWorkflowId) continue;
    const submittedAt = aw.finished ?? aw.started;
    const graded = aw.state === ActivityWorkflowState.finished && rec?.score != null && graderId !== undefined;
    const id = crypto.randomUUID();
    const releasedAt = new Date(submittedAt.getTime() + 2 * 86_400_000);
    await tx.insert(s.handIns).values({
      id,
      tenantId,
      userId: aw.userId,
      objectiveId: objective.id,
      activityPartId: part.id,
      objectiveWorkflowId: aw.objectiveWorkflowId,
      activityWorkflowId: aw.id,
      state: graded ? "graded" : "submitted",
      body: TEXT,
      submittedAt,
      late: isLate((part.constraint as { due?: string | null }).due ?? null, submittedAt),
      submissions: 1,
      score: graded ? rec!.score : null,
      comment: graded ? COMMENT : "",
      gradingVersion: graded ? 1 : 0,
      graderId: graded ? graderId : null,
      gradedAt: graded ? releasedAt : null,
      releasedAt: graded ? releasedAt : null,
      releasedBy: graded ? graderId : null,
      createdAt: submittedAt,
      updatedAt: graded ? releasedAt : submittedAt,
    });
    const files = [
      { role: "submission" as const, name: "report.pdf", bytes: smallPdf(activity.name, "Findings and next steps.") },
      ...(graded
        ? [{ role: "feedback" as const, name: "feedback.pdf", bytes: smallPdf("Feedback", "Notes on your report.") }]
        : []),
    ];
    for (const f of files) {
      const fileId = crypto.randomUUID();
      const key = handInFileKey(id, fileId);
      await store.put(key, f.bytes);
      await tx.insert(s.handInFiles).values({
        id: fileId,
        handInId: id,
        role: f.role,
        name: f.name,
        size: f.bytes.byteLength,
        kind: "pdf",
        sha256: sha256(f.bytes),
        storageKey: key,
        createdAt: f.role === "feedback" ? releasedAt : submittedAt,
      });
    }
    if (graded)
      await tx.insert(s.handInGradingEvents).values({
        handInId: id,
        actorId: graderId,
        action: "release",
        before: { state: "submitted", score: null, comment: "" },
        after: { state: "graded", score: rec!.score, comment: COMMENT },
        at: releasedAt,
      });
  }
}
