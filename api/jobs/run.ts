/**
 * Background jobs of the embedded API (decision 021): an in-process timer, on every node. Each run
 * claims its rows with SKIP LOCKED, so nodes sharing a PostgreSQL split the work and never repeat it.
 */
import { and, asc, count, isNull, lte, sql } from "drizzle-orm";
import { log } from "../db/log";
import type { ApiDeps } from "../context";
import type { Db } from "../db/client";
import { certificateRecords, mailPreferences, reinforcementWorkflows } from "../db/schema";
import { ensureCertificateFiles } from "../files/certificate-files";
import { fileStore } from "../files/roots";
import { loadCertificate } from "../queries/certificates";
import { runLearnerMail } from "./learner-mail";
import { mailKey } from "../mail/preferences";
import { DEFAULT_ANALYTICS_RETENTION_DAYS, deleteOldAnalyticsEvents } from "./analytics-retention";
import { deleteOldMail, sendPendingMail } from "../mail/outbox";

const JOB_INTERVAL_MS = 60_000;

/** Certificates whose files are not made yet, a few per run (each takes ~0.1–0.3 s of CPU). */
async function makePendingCertificateFiles(deps: ApiDeps, now = new Date(), limit = 5) {
  const db = deps.database.db;
  const pending = await db
    .select({ id: certificateRecords.id })
    .from(certificateRecords)
    .where(and(isNull(certificateRecords.pdfPath), isNull(certificateRecords.revokedAt)))
    .orderBy(asc(certificateRecords.created))
    .limit(limit);
  let made = 0;
  for (const { id } of pending) {
    const row = await loadCertificate(db, id, now);
    // A certificate whose result is still hidden gets its files when it is first shown.
    if (!row) continue;
    await ensureCertificateFiles(db, { store: fileStore(deps), appUrl: deps.appUrl ?? "http://localhost:3000" }, row);
    made++;
  }
  return made;
}

/** Starts the timer; returns a stop function. The first run comes a few seconds after start. */
export function startJobs(deps: ApiDeps): () => void {
  const options = deps.jobs ?? {};
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const mail = { appUrl: deps.appUrl ?? "http://localhost:3000", dataDir: deps.dataDir, smtpUrl: options.smtpUrl };
      // Questions, due-date reminders, announcements and daily digests, queued in the outbox.
      await runLearnerMail(deps.database.db, { appUrl: mail.appUrl, key: mailKey(deps.mailLinkKey) });
      // What the outbox holds that was not sent at once (a failed send, a node that stopped).
      await sendPendingMail(deps.database.db, mail);
      await deleteOldMail(deps.database.db);
      await makePendingCertificateFiles(deps);
      // Issue 29 item 3: analytics events past their retention.
      const gone = await deleteOldAnalyticsEvents(
        deps.database.db,
        deps.analyticsRetentionDays ?? DEFAULT_ANALYTICS_RETENTION_DAYS,
      );
      if (gone > 0) log().info({ deleted: gone }, "jobs: analytics events past their retention deleted");
    } catch (error) {
      log().error({ err: error }, "jobs: run failed");
    } finally {
      running = false;
    }
  };
  const first = setTimeout(run, 3_000);
  const timer = setInterval(run, options.intervalMs ?? JOB_INTERVAL_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

/** What the jobs have still to do (the metrics' `jobs_pending`): due questions not sent, certificates without files. */
export async function pendingJobs(db: Db, now = new Date()): Promise<Record<string, number>> {
  const [[mail], [files]] = await Promise.all([
    db
      .select({ n: count() })
      .from(reinforcementWorkflows)
      .where(
        and(
          isNull(reinforcementWorkflows.sentAt),
          isNull(reinforcementWorkflows.answer),
          lte(reinforcementWorkflows.dueAt, now),
          // Questions of a learner who turned them off, or gets them in a digest, are not waiting for a run.
          sql`not exists (select 1 from ${mailPreferences} mp where mp.user_id = ${reinforcementWorkflows.userId} and (not mp.reinforcement or mp.daily_digest))`,
        ),
      ),
    db
      .select({ n: count() })
      .from(certificateRecords)
      .where(and(isNull(certificateRecords.pdfPath), isNull(certificateRecords.revokedAt))),
  ]);
  return { reinforcement_mail: Number(mail?.n ?? 0), certificate_files: Number(files?.n ?? 0) };
}
