/**
 * A certificate's PDF and PNG, made once and kept in the store under certificates/ (decision 020;
 * DATA_DIR/storage or a bucket, decision 037): the first download (or the background job, whichever
 * comes first) renders and stores them; every later download streams the stored file. Two concurrent
 * first downloads both render and the second write wins — the files are identical, so nothing is
 * lost. Nodes that share no store each draw their own copy the first time it is asked of them.
 */
import { eq } from "drizzle-orm";
import type { FileStore } from "./object-store";
import { certificateScore } from "../../domain/certificates";
import type { Db } from "../db/client";
import { certificateRecords } from "../db/schema";
import type { CertificateRow } from "../queries/certificates";
import { credentialUrls } from "../credentials";
import { holderName } from "../mappers/certificates";
import type { CertificateFacts } from "./certificate-render";
import { renderCertificateFiles } from "./render-process";

const CERTIFICATE_DIR = "certificates";

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
  options: { store: FileStore; appUrl: string },
  row: CertificateRow,
): Promise<{ pdf: string; png: string }> {
  const { store } = options;
  // Recorded and in this node's store: stream them. Recorded by another node whose store this one
  // does not share (several nodes, decision 019): this node draws its own copy once.
  const stored = async (path: string | null) => path !== null && (await store.stat(path)) !== null;
  if ((await stored(row.c.pdfPath)) && (await stored(row.c.pngPath)))
    return { pdf: row.c.pdfPath!, png: row.c.pngPath! };
  const facts = certificateFacts(row, options.appUrl);
  // Drawn in the renderer's thread: the API (in the database thread) keeps answering meanwhile.
  const { pdf, png } = await renderCertificateFiles(facts);
  const paths = { pdf: `${CERTIFICATE_DIR}/${row.c.id}.pdf`, png: `${CERTIFICATE_DIR}/${row.c.id}.png` };
  await Promise.all([store.put(paths.pdf, pdf), store.put(paths.png, png)]);
  await db
    .update(certificateRecords)
    .set({ pdfPath: paths.pdf, pngPath: paths.png })
    .where(eq(certificateRecords.id, row.c.id));
  row.c.pdfPath = paths.pdf;
  row.c.pngPath = paths.png;
  return paths;
}
