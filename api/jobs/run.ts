/**
 * Background jobs of the embedded API (decision 021): an in-process timer, on every node. Each run
 * claims its rows with SKIP LOCKED, so nodes sharing a PostgreSQL split the work and never repeat it.
 */
import { and, asc, isNull } from "drizzle-orm";
import type { ApiDeps } from "../context";
import { certificateRecords } from "../db/schema";
import { ensureCertificateFiles } from "../files/certificate-files";
import { loadCertificate } from "../queries/certificates";
import { sendDueReinforcements } from "./reinforcement-mail";
import { DEFAULT_ANALYTICS_RETENTION_DAYS, deleteOldAnalyticsEvents } from "./analytics-retention";

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
    await ensureCertificateFiles(db, { dataDir: deps.dataDir, appUrl: deps.appUrl ?? "http://localhost:3000" }, row);
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
      await sendDueReinforcements(deps.database.db, {
        appUrl: deps.appUrl ?? "http://localhost:3000",
        dataDir: deps.dataDir,
        smtpUrl: options.smtpUrl,
      });
      await makePendingCertificateFiles(deps);
      // Issue 29 item 3: analytics events past their retention.
      const gone = await deleteOldAnalyticsEvents(
        deps.database.db,
        deps.analyticsRetentionDays ?? DEFAULT_ANALYTICS_RETENTION_DAYS,
      );
      if (gone > 0) console.log(`[jobs] deleted ${gone} analytics events past their retention`);
    } catch (error) {
      console.error("[jobs] run failed", error);
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
