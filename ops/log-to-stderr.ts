/**
 * Imported first by the operator's program: its answers (JSON lists, tables) are stdout, so the log lines
 * of the modules it loads go to stderr (api/db/log.ts and app/services/logger.server.ts read LOG_FD when
 * they load).
 */
process.env.LOG_FD = "2";
