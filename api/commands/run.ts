// Commands (spec 7.7): running one exactly once per id — the command row and its writes in one transaction —
// and answering with, or reporting, its status. What each command does is in the modules beside this one.
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { type ApiMessage, type CommandStatus } from "../../domain/contract/common";
import type { ApiEnv } from "../context";
import type { Db, Tx } from "../db/client";
import { commands } from "../db/schema";
import { ApiError, message } from "../errors";
import { CommandResult } from "../../domain/vocabulary";

const COMMAND_STATUS_PATH = "/api/lms/v1/commands";

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
 * What identifies a command's input: its type and body, as SHA-256 over JSON with sorted keys. The same
 * id sent again with other input is another command, refused at once (409) — not answered with the
 * first one's outcome (a reused enrolment id once made the app wait 21 s for a course it never got).
 */
function fingerprintOf(type: string, body: unknown): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === "object"
        ? Object.fromEntries(
            Object.keys(value as object)
              .sort()
              .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
          )
        : value;
  return createHash("sha256")
    .update(JSON.stringify([type, canonical(body)]))
    .digest("base64url");
}

export interface CommandInput {
  /** The client's command id, or one derived from the command's target (`derived`). */
  id: string;
  type: string;
  /** The command's input, as the fingerprint sees it. */
  body: unknown;
  /**
   * The id is derived from the target (e.g. "submit:<workflowId>"), not chosen per click: a refusal is
   * then not remembered, since the same id must succeed once the rule allows it (an activity that
   * opens at its startFrom). Only a completed command answers a repeat.
   */
  derived?: boolean;
}

const reused = () =>
  new ApiError(409, {
    id: [message("commandIdReused", "This command id was already used for another command.")],
  });

/**
 * Runs a command once per client-generated id *of the caller* (spec 7.7, decision 018): ids are scoped to
 * the user, so another user who learns or derives an id cannot claim it first. The command row and the
 * command's own writes commit in one transaction, so a crash leaves either both or neither; a repeated
 * or concurrent command with the same id and input gets the first one's outcome; the same id with
 * another type or input is a 409 at once. Domain failures (ApiError) are recorded as a failed command,
 * so a retry answers the same way.
 */
export async function runCommand<T>(
  c: Context<ApiEnv>,
  input: CommandInput,
  execute: (tx: Tx) => Promise<T>,
): Promise<Response> {
  const db = c.var.db;
  const user = c.var.user;
  const fingerprint = fingerprintOf(input.type, input.body);
  const existing = await findCommand(db, user.id, input.id);
  let status: CommandStatus;
  if (existing) {
    if (existing.type !== input.type || (existing.fingerprint !== null && existing.fingerprint !== fingerprint))
      throw reused();
    status = toStatus(existing);
  } else {
    status = await executeOnce(db, user.id, { ...input, fingerprint }, execute);
  }
  return respond(c, status);
}

async function findCommand(db: Db | Tx, userId: string, id: string) {
  const rows = await db
    .select()
    .from(commands)
    .where(and(eq(commands.userId, userId), eq(commands.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** PostgreSQL's deadlock and serialization failures: the transaction did nothing and may simply run again. */
function isRetryable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === "40P01" || code === "40001") return true;
  }
  return false;
}

/**
 * A command whose transaction PostgreSQL aborted to break a deadlock (e.g. two groups finishing at once
 * with a member in both, decision 026) runs again, up to three times.
 */
async function retryOnDeadlock<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= 3 || !isRetryable(err)) throw err;
    }
  }
}

async function executeOnce<T>(
  db: Db,
  userId: string,
  input: CommandInput & { fingerprint: string },
  execute: (tx: Tx) => Promise<T>,
): Promise<CommandStatus> {
  const row = { id: input.id, userId, type: input.type, fingerprint: input.fingerprint };
  try {
    const done = await retryOnDeadlock(() =>
      db.transaction(async (tx) => {
        // Claim the id first: a concurrent duplicate blocks here on the primary key until we commit,
        // then conflicts and reads our outcome.
        const claimed = await tx
          .insert(commands)
          .values({ ...row, state: "pending" })
          .onConflictDoNothing()
          .returning({ id: commands.id });
        if (claimed.length === 0) return null;
        const data = await execute(tx);
        const [completed] = await tx
          .update(commands)
          .set({ state: "completed", result: CommandResult.completed, data: (data ?? null) as object })
          .where(and(eq(commands.userId, userId), eq(commands.id, input.id)))
          .returning();
        return completed;
      }),
    );
    if (done) return toStatus(done);
  } catch (err) {
    if (!(err instanceof ApiError) || input.derived) throw err;
    // The domain refused the command: nothing it wrote survives; remember the refusal.
    const [failed] = await db
      .insert(commands)
      .values({
        ...row,
        state: "failed",
        result: CommandResult.failed,
        errors: err.errors,
        data: { status: err.status },
      })
      .onConflictDoNothing()
      .returning();
    if (failed) return toStatus(failed);
  }
  const winner = await findCommand(db, userId, input.id);
  if (!winner) throw reused();
  if (winner.type !== input.type || (winner.fingerprint !== null && winner.fingerprint !== input.fingerprint))
    throw reused();
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
  const row = await findCommand(c.var.db, c.var.user.id, id);
  if (!row) throw new ApiError(404, { "": [message("notFound", "The command was not found.")] });
  return c.json(toStatus(row), 200);
}
