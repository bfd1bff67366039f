/**
 * A certificate's PDF and PNG, made once and kept under DATA_DIR/storage/certificates (decision
 * 020): the first download (or the background job, whichever comes first) renders and stores them;
 * every later download streams the stored file. Two concurrent first downloads both render and the
 * second rename wins — the files are identical, so nothing is lost. Nodes that do not share
 * DATA_DIR/storage each draw their own copy the first time it is asked of them.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { eq } from "drizzle-orm";
import { certificateScore } from "../../domain/certificates";
import type { Db } from "../db/client";
import { certificateRecords } from "../db/schema";
import type { CertificateRow } from "../queries/certificates";
import { credentialUrls } from "../credentials";
import { holderName } from "../mappers/certificates";
import type { CertificateFacts } from "./certificate-render";
import { renderCertificateFiles } from "./render-thread";

const CERTIFICATE_DIR = "certificates";

/** DATA_DIR/storage, or a folder of this process's own when the API runs without one (tests). */
export function storageDir(dataDir: string | undefined): string {
  return dataDir ? resolve(dataDir, "storage") : join(tmpdir(), `learner-app-storage-${process.pid}`);
}

const dateOf = (d: Date | null, timeZone: string | null) =>
  d ? new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: timeZone ?? "UTC" }).format(d) : null;

/** What the files say: the holder, the course, the dates in the holder's zone, the revealed result. */
function certificateFacts(row: CertificateRow, appUrl: string): CertificateFacts {
  const score = certificateScore(row.result);
  return {
    templateName: row.c.templateName,
    holderName: holderName(row.student),
    courseName: row.objective.name,
    courseCode: row.objective.code,
    certificateNumber: row.c.certificateNumber,
    issued: dateOf(row.c.created, row.student.timezone)!,
    expires: dateOf(row.c.expirationDate, row.student.timezone),
    grade: row.result.grade?.name ?? null,
    score: score
      ? `${score.percent} %${score.points ? ` (${score.points.score} out of ${score.points.maxScore} points)` : ""}`
      : null,
    publicUrl: credentialUrls(appUrl).publicPage(row.c.certificateNumber),
  };
}

/** The stored files' paths (relative to storage), rendering and recording them the first time. */
export async function ensureCertificateFiles(
  db: Db,
  options: { dataDir: string | undefined; appUrl: string },
  row: CertificateRow,
): Promise<{ pdf: string; png: string }> {
  const root = storageDir(options.dataDir);
  // Recorded and on this node's disk: stream them. Recorded by another node whose DATA_DIR this one
  // does not share (several nodes, decision 019): this node draws its own copy once.
  const stored = (path: string | null) => path !== null && existsSync(join(root, path));
  if (stored(row.c.pdfPath) && stored(row.c.pngPath)) return { pdf: row.c.pdfPath!, png: row.c.pngPath! };
  const facts = certificateFacts(row, options.appUrl);
  // Drawn in the renderer's thread: the API (in the database thread) keeps answering meanwhile.
  const { pdf, png } = await renderCertificateFiles(facts);
  mkdirSync(join(root, CERTIFICATE_DIR), { recursive: true });
  const paths = { pdf: `${CERTIFICATE_DIR}/${row.c.id}.pdf`, png: `${CERTIFICATE_DIR}/${row.c.id}.png` };
  for (const [file, bytes] of [
    [paths.pdf, pdf],
    [paths.png, png],
  ] as const) {
    const tmp = join(root, `${file}.${process.pid}.${Date.now()}.tmp`);
    writeFileSync(tmp, bytes);
    renameSync(tmp, join(root, file));
  }
  await db
    .update(certificateRecords)
    .set({ pdfPath: paths.pdf, pngPath: paths.png })
    .where(eq(certificateRecords.id, row.c.id));
  row.c.pdfPath = paths.pdf;
  row.c.pngPath = paths.png;
  return paths;
}
