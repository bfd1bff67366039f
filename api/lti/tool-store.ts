/**
 * Writing the LTI tool registry (decision 043): the operator's tools are rows of `lti_tools`, in
 * PostgreSQL with DATABASE_URL and in the embedded PGlite otherwise — so every node launches the same
 * tools, and a tool added through one node (or by `npm run lti:tool` on any machine that reaches the
 * database) is launched by all of them at once. Each write commits with the change notice "lti-tools"
 * (decision 019's channel): every node's registry (`registry.ts`) reads the tools again.
 *
 * `DATA_DIR/lti-tools.json`, where the registry lived before, is taken over once: its tools become
 * rows (a tool whose key, client id or consumer key the database has already is left out, and said)
 * and the file is renamed, so it is never read again.
 */
import { existsSync, readFileSync, renameSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { and, eq, ne, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { CHANGES_CHANNEL, LTI_TOOLS_CHANGE } from "../../domain/contract/changes";
import type { Database, Db, Tx } from "../db/client";
import { ltiTools } from "../db/schema";
import { log } from "../db/log";
import { clashWith, listStoredTools, ltiToolSchema, toolProblems, type LtiTool } from "./registry";

/** Where the registry was kept before decision 043 (taken over on the next start or command). */
export const TOOLS_FILE = "lti-tools.json";

/** A refusal of the operator's command: its reason, and nothing changed. */
export class ToolStoreError extends Error {
  constructor(
    readonly code: "invalid" | "clash" | "notFound",
    message: string,
  ) {
    super(message);
  }
}

/** The columns the platform looks tools up by: a client id for LTI 1.3, a consumer key for LTI 1.1. */
function rowOf(tool: LtiTool) {
  return {
    key: tool.key,
    version: tool.version,
    clientId: tool.version === "1.3" ? (tool.clientId ?? null) : null,
    consumerKey: tool.version === "1.1" ? (tool.consumerKey ?? null) : null,
    definition: tool as unknown as Record<string, unknown>,
  };
}

/** Every node's registry reads the tools again once this transaction commits (never for a rollback). */
const notifyChange = (tx: Tx) => tx.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${LTI_TOOLS_CHANGE})`);

/** The other tools `tool` would clash with: the same client id (LTI 1.3) or consumer key (LTI 1.1). */
async function othersLike(tx: Tx, tool: LtiTool): Promise<LtiTool[]> {
  const row = rowOf(tool);
  const same: SQL[] = [];
  if (row.clientId) same.push(eq(ltiTools.clientId, row.clientId));
  if (row.consumerKey) same.push(eq(ltiTools.consumerKey, row.consumerKey));
  if (same.length === 0) return [];
  const rows = await tx
    .select({ definition: ltiTools.definition })
    .from(ltiTools)
    .where(and(ne(ltiTools.key, tool.key), or(...same)));
  return rows.flatMap((r) => {
    const parsed = ltiToolSchema.safeParse(r.definition);
    return parsed.success ? [parsed.data] : [];
  });
}

/** A unique index said no: another writer took the client id or consumer key a moment before. */
function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e)
    if (e.code === "23505") return true;
  return false;
}

/**
 * Adds `tool`, or replaces the registered tool with its key. Refused when another tool has its client
 * id (LTI 1.3) or consumer key (LTI 1.1): the platform finds tools by these.
 */
export async function saveTool(db: Db, tool: LtiTool): Promise<{ replaced: boolean }> {
  try {
    return await db.transaction(async (tx) => {
      const clash = clashWith(tool, await othersLike(tx, tool));
      if (clash) throw new ToolStoreError("clash", clash);
      const row = rowOf(tool);
      const [before] = await tx.select({ key: ltiTools.key }).from(ltiTools).where(eq(ltiTools.key, tool.key));
      await tx
        .insert(ltiTools)
        .values(row)
        .onConflictDoUpdate({ target: ltiTools.key, set: { ...row, updatedAt: sql`now()` } });
      await notifyChange(tx);
      return { replaced: Boolean(before) };
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ToolStoreError("clash", `another tool registered a moment ago has the same client id or consumer key`);
    throw err;
  }
}

/** Removes the tool `key`; false when there is none. */
export async function removeTool(db: Db, key: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const gone = await tx.delete(ltiTools).where(eq(ltiTools.key, key)).returning({ key: ltiTools.key });
    if (gone.length) await notifyChange(tx);
    return gone.length > 0;
  });
}

const fileSchema = z.strictObject({ tools: z.array(ltiToolSchema) });

/** A registry file's text (`{ tools: [...] }`, the old DATA_DIR file's and the demo's format) as tools. */
export function parseToolsFile(text: string): LtiTool[] {
  return fileSchema.parse(JSON.parse(text)).tools;
}

/** What a take-over of `lti-tools.json` did: the keys added, already there as they are, and left out. */
export interface TakeOver {
  added: string[];
  same: string[];
  leftOut: { key: string; reason: string }[];
  movedTo: string;
}

/**
 * Takes over the registry file of a node from before decision 043 (`DATA_DIR/lti-tools.json`): its tools
 * become rows, unless the database already has another tool by that key, client id or consumer key
 * (left out, and logged), and the file is renamed `lti-tools.json.moved-to-database`. Nodes that start
 * together take over their files in turn (the lock "lti-tools"). Null when there is no file; a file that
 * cannot be read stays where it is, and the log says why.
 */
export async function takeOverToolsFile(database: Database, file: string): Promise<TakeOver | null> {
  if (!existsSync(file)) return null;
  let tools: LtiTool[];
  try {
    tools = parseToolsFile(readFileSync(file, "utf8"));
  } catch (err) {
    const problems =
      err instanceof z.ZodError ? err.issues.map((i) => `${i.path.join(".")}: ${i.message}`) : [(err as Error).message];
    log().error({ file, problems }, "lti: the old registry file could not be read; its tools are not in the database");
    return null;
  }
  const result: TakeOver = { added: [], same: [], leftOut: [], movedTo: `${file}.moved-to-database` };
  await database.exclusive("lti-tools", async () => {
    const stored = await listStoredTools(database.db);
    for (const tool of tools) {
      const mine = stored.find((t) => t.key === tool.key);
      if (mine && isDeepStrictEqual(mine, tool)) {
        result.same.push(tool.key);
        continue;
      }
      const clash = mine ? `the database has another tool "${tool.key}"` : clashWith(tool, stored);
      if (clash) {
        result.leftOut.push({ key: tool.key, reason: clash });
        continue;
      }
      try {
        await saveTool(database.db, tool);
        stored.push(tool);
        result.added.push(tool.key);
      } catch (err) {
        if (!(err instanceof ToolStoreError)) throw err;
        result.leftOut.push({ key: tool.key, reason: err.message });
      }
    }
  });
  try {
    renameSync(file, result.movedTo);
  } catch (err) {
    // Another node that shares this folder moved it first.
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  for (const { key, reason } of result.leftOut)
    log().warn({ tool: key, reason, file }, "lti: a tool of the old registry file was left out of the database");
  log().info(
    { added: result.added, alreadyThere: result.same, leftOut: result.leftOut.length, movedTo: result.movedTo },
    "lti: the old registry file was taken over into the database",
  );
  return result;
}

/** The operator's commands on the registry (`npm run lti:tool -- add|list|remove`), here or through the server. */
export const toolCommand = z.discriminatedUnion("command", [
  z.object({ command: z.literal("list") }),
  z.object({ command: z.literal("add"), tool: ltiToolSchema }),
  z.object({ command: z.literal("remove"), key: z.string().min(1).max(63) }),
]);
export type ToolCommand = z.infer<typeof toolCommand>;

/** A registered tool as `list` shows it: everything but LTI 1.1's shared secret. */
export type ListedTool = Omit<LtiTool, "secret">;
export type ToolCommandResult =
  | { command: "list"; tools: ListedTool[] }
  | { command: "add"; key: string; version: LtiTool["version"]; replaced: boolean }
  | { command: "remove"; key: string };

/**
 * Runs the operator's command on the database. `given`: the tools the server gives itself (the demo's),
 * whose key, client id or consumer key a registered tool may not take.
 */
export async function runToolCommand(
  db: Db,
  command: ToolCommand,
  given: readonly LtiTool[] = [],
): Promise<ToolCommandResult> {
  switch (command.command) {
    case "list":
      return {
        command: "list",
        tools: (await listStoredTools(db)).map(({ secret: _secret, ...tool }) => tool),
      };
    case "add": {
      const tool = command.tool;
      const problems = toolProblems(tool);
      if (problems.length) throw new ToolStoreError("invalid", problems.join("\n"));
      const clash = clashWith(tool, given);
      if (clash) throw new ToolStoreError("clash", clash);
      const { replaced } = await saveTool(db, tool);
      return { command: "add", key: tool.key, version: tool.version, replaced };
    }
    case "remove":
      if (!(await removeTool(db, command.key)))
        throw new ToolStoreError("notFound", `No tool "${command.key}" is registered.`);
      return { command: "remove", key: command.key };
  }
}
