// Commands (spec 7.7): running one exactly once per id — the command row and its writes in one transaction —
// and answering with, or reporting, its status. What each command does is in the modules beside this one.
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { type ApiMessage, type CommandStatus } from "../../domain/contract/common";
import type { ApiEnv } from "../context";
import type { Db, Tx } from "../db/client";
import { commands } from "../db/schema";
import { ApiError, message } from "../errors";
import { CommandResult } from "../../domain/vocabulary";

export const COMMAND_STATUS_PATH = "/api/lms/v1/commands";

function toStatus(row: typeof commands.$inferSelect): CommandStatus {
  return {
    id: row.id,
    type: row.type,
    state: row.state as CommandStatus["state"],
    result: row.result,
    data: row.data ?? null,
    errors: (row.errors as Record<string, ApiMessage[]> | null) ?? {},
  };
}

/**
 * Runs a command once per client-generated id (spec 7.7). The command row and the command's own
 * writes commit in one transaction, so a crash leaves either both or neither; a repeated or
 * concurrent command with the same id gets the first one's outcome. Domain failures (ApiError) are
 * recorded as a failed command, so a retry answers the same way.
 */
export async function runCommand<T>(
  c: Context<ApiEnv>,
  input: { id: string; type: string },
  execute: (tx: Tx) => Promise<T>,
): Promise<Response> {
  const db = c.var.db;
  const user = c.var.user;
  const existing = await findCommand(db, input.id);
  let status: CommandStatus;
  if (existing) {
    if (existing.userId !== user.id || existing.type !== input.type) {
      throw new ApiError(409, {
        id: [message("commandIdReused", "This command id was already used for another command.")],
      });
    }
    status = toStatus(existing);
  } else {
    status = await executeOnce(db, user.id, input, execute);
  }
  return respond(c, status);
}

async function findCommand(db: Db | Tx, id: string) {
  const rows = await db.select().from(commands).where(eq(commands.id, id)).limit(1);
  return rows[0] ?? null;
}

async function executeOnce<T>(
  db: Db,
  userId: string,
  input: { id: string; type: string },
  execute: (tx: Tx) => Promise<T>,
): Promise<CommandStatus> {
  try {
    const row = await db.transaction(async (tx) => {
      // Claim the id first: a concurrent duplicate blocks here on the primary key until we commit,
      // then conflicts and reads our outcome.
      const claimed = await tx
        .insert(commands)
        .values({ id: input.id, userId, type: input.type, state: "pending" })
        .onConflictDoNothing()
        .returning({ id: commands.id });
      if (claimed.length === 0) return null;
      const data = await execute(tx);
      const [done] = await tx
        .update(commands)
        .set({ state: "completed", result: CommandResult.completed, data: (data ?? null) as object })
        .where(eq(commands.id, input.id))
        .returning();
      return done;
    });
    if (row) return toStatus(row);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // The domain refused the command: nothing it wrote survives; remember the refusal.
    const [failed] = await db
      .insert(commands)
      .values({
        id: input.id,
        userId,
        type: input.type,
        state: "failed",
        result: CommandResult.failed,
        errors: err.errors,
        data: { status: err.status },
      })
      .onConflictDoNothing()
      .returning();
    if (failed) return toStatus(failed);
  }
  const winner = await findCommand(db, input.id);
  if (!winner || winner.userId !== userId)
    throw new ApiError(409, { id: [message("commandIdReused", "This command id was already used.")] });
  return toStatus(winner);
}

function respond(c: Context<ApiEnv>, status: CommandStatus): Response {
  const prefer = c.req.header("prefer") ?? "";
  const location = `${COMMAND_STATUS_PATH}/${status.id}`;
  if (/respond-async/i.test(prefer) && !/respond-sync/i.test(prefer)) {
    c.header("Location", location);
    return c.json(status, 202);
  }
  if (status.state === "failed") {
    const code = ((status.data as { status?: number } | null)?.status ?? 400) as 400;
    return c.json({ status: code, title: "Command failed", errors: status.errors }, code);
  }
  c.header("Content-Location", location);
  return c.json(status, 200);
}

export async function readCommandStatus(c: Context<ApiEnv>, id: string): Promise<Response> {
  const row = await findCommand(c.var.db, id);
  if (!row || row.userId !== c.var.user.id)
    throw new ApiError(404, { "": [message("notFound", "The command was not found.")] });
  return c.json(toStatus(row), 200);
}
