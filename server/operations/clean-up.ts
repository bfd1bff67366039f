/**
 * Every ten minutes: expired provider records and sessions that ended a day ago are deleted
 * (decision 017), and temporary files of writers killed halfway go too — at start every one when
 * this process alone holds the embedded database, else those untouched for an hour (another node
 * may be writing into a shared folder).
 */
import { deleteExpiredModels } from "../../identity/adapter";
import { deleteEndedSessions } from "../../identity/sessions/store";
import { sweepTemporaryFiles } from "../../api/files/temporary";
import type { Database } from "../../api/db/client";
import { rootLog } from "../../app/services/logger.server";

const TEMPORARY_FILES_AGE_MS = 60 * 60_000;
const EVERY_MS = 10 * 60_000;

export async function startCleanUp(
  database: Database,
  dataDir: string,
  /** Runs with every clean-up after the first (the planner statistics when due). */
  alongside: () => void,
): Promise<void> {
  let first = true;
  const cleanUp = async () => {
    if (!first) alongside();
    try {
      const olderThanMs = first && database.kind === "pglite" ? 0 : TEMPORARY_FILES_AGE_MS;
      first = false;
      const [models, ended, files] = await Promise.all([
        deleteExpiredModels(database.db),
        deleteEndedSessions(database.db),
        sweepTemporaryFiles(dataDir, { olderThanMs }),
      ]);
      if (models + ended > 0)
        rootLog.info({ models, ended }, "sessions: cleaned up expired provider records and ended sessions");
      if (files > 0) rootLog.info({ files }, "files: removed temporary files left by interrupted writes");
    } catch (err) {
      rootLog.warn({ err }, "sessions: clean-up failed");
    }
  };
  await cleanUp();
  setInterval(() => void cleanUp(), EVERY_MS).unref();
}
