/**
 * `npm run lti:tool -- add|list|remove|attach|detach` (issue 14 item 1, issue 32 item 2; decisions 023,
 * 041, 043): the operator's LTI tool registry — in the database, so every node launches the same tools —
 * and which activity launches which tool. Running servers learn of a change at once (the change
 * notice "lti-tools").
 *
 *   npm run lti:tool -- add --key lab --name "Lab" --version 1.3 --client-id lab-1 --deployment-id d1 \
 *     --login-url https://lab.example/login --launch-url https://lab.example/launch \
 *     --jwks-url https://lab.example/jwks --redirect-uri https://lab.example/launch
 *   npm run lti:tool -- add --key quiz --name "Quiz" --version 1.1 --launch-url https://quiz.example/lti \
 *     --consumer-key quiz --secret s3cret
 *   (either version: --allow "camera; microphone" --sandbox "allow-popups" for the tool's frame)
 *   npm run lti:tool -- list
 *   npm run lti:tool -- remove lab
 *   npm run lti:tool -- attach lab --course CODE [--activity ID|CODE] [--custom k=v …]
 *   npm run lti:tool -- detach lab --course CODE [--activity ID|CODE]
 *
 * Every command works on DATABASE_URL's database, or on the embedded one when no process holds it, and
 * otherwise asks the running server (loopback, the operator token of DATA_DIR/secrets.json) — as
 * `npm run content:import-scorm` does; while another command holds the embedded database, it waits for
 * it (up to 30 s). A refusal prints why and changes nothing (exit status 1). A `DATA_DIR/lti-tools.json`
 * from before the registry moved to the database is taken over first.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase, type Database } from "../db/client";
import { loadSecrets } from "../runtime";
import { AttachError, attachmentCommand, runAttachmentCommand, type AttachmentCommand } from "./attach";
import { listStoredTools, ltiToolSchema, registrySnapshot, toolProblems, type LtiTool } from "./registry";
import {
  runToolCommand,
  takeOverToolsFile,
  ToolStoreError,
  TOOLS_FILE,
  type ListedTool,
  type ToolCommand,
  type ToolCommandResult,
} from "./tool-store";

const dataDir = resolve(process.env.DATA_DIR ?? "./data");
const port = Number(process.env.PORT ?? 3000);
const appUrl = (process.env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
const serverUrl = `http://127.0.0.1:${new URL(appUrl).port || port}`;
const [command, ...rest] = process.argv.slice(2);

function fail(text: string): never {
  console.error(text);
  process.exit(1);
}

/**
 * An `http:` tool opens in the course's frames only where the app itself is `http:` (a local setup):
 * an `https:` page may not frame an `http:` one (mixed content), and browsers warn before a form is sent
 * to it. Said, not refused: the operator may be about to change APP_URL.
 */
function httpWarning(tool: Pick<LtiTool, "key" | "launchUrl" | "loginUrl" | "redirectUris">): string | null {
  if (!appUrl.startsWith("https:")) return null;
  const plain = [tool.launchUrl, tool.loginUrl, ...tool.redirectUris].filter((u) => u?.startsWith("http:"));
  if (plain.length === 0) return null;
  return `Warning: ${tool.key} is served over http: (${plain[0]}) but APP_URL is https: — browsers will not open it in the course's frame (mixed content) and warn before sending the launch to it. Register its https: address.`;
}

/** What the commands need, on the database itself or through the server that holds it. */
interface Registry {
  tools(command: ToolCommand): Promise<ToolCommandResult>;
  attachments(command: AttachmentCommand): Promise<unknown>;
}

/** A command the server refused: the reason it gave. */
class Refused extends Error {}

/** Asks the server that holds the embedded database to run a command. */
async function viaServer<T>(path: string, body: unknown): Promise<T> {
  const { operatorToken } = await loadSecrets(dataDir);
  const res = await fetch(`${serverUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${operatorToken}` },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { result?: T; error?: string };
  if (!res.ok) throw new Refused(answer.error ?? `the server answered ${res.status}`);
  return answer.result as T;
}

/** Whether a server answers on this machine's port (the one that holds the embedded database). */
const serverAnswers = () =>
  fetch(`${serverUrl}/healthz`).then(
    (res) => res.ok,
    () => false,
  );

/**
 * Runs `work` on the registry: DATABASE_URL's database or the free embedded one (migrated, an old
 * registry file taken over), else the server that holds the embedded database; when a process holds it
 * and no server answers (another command), waits for it.
 */
async function onRegistry<T>(work: (registry: Registry) => Promise<T>): Promise<T> {
  const until = Date.now() + 30_000;
  for (;;) {
    let database: Database | undefined;
    try {
      database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: resolve(dataDir, "pglite") });
    } catch (err) {
      if (!/in use by process/.test((err as Error).message)) throw err;
    }
    if (database) {
      const db = database;
      try {
        await db.migrate();
        const took = await takeOverToolsFile(db, resolve(dataDir, TOOLS_FILE));
        if (took)
          console.log(
            `Took over ${took.added.length + took.same.length} tools from ${resolve(dataDir, TOOLS_FILE)} into the database (the file is now ${took.movedTo})${took.leftOut.length ? `; left out: ${took.leftOut.map((l) => `${l.key} (${l.reason})`).join(", ")}` : ""}.`,
          );
        return await work({
          tools: (cmd) => runToolCommand(db.db, cmd),
          // The registry as this process knows it: the database's (the server adds the demo's, if any).
          attachments: async (cmd) =>
            runAttachmentCommand(db.db, registrySnapshot([], await listStoredTools(db.db)), cmd),
        });
      } finally {
        await db.close();
      }
    }
    if (await serverAnswers())
      return work({
        tools: (cmd) => viaServer("/operator/v1/lti-tools", cmd),
        attachments: (cmd) => viaServer("/operator/v1/lti-attachments", cmd),
      });
    if (Date.now() > until)
      fail(
        `The database in ${dataDir} is held by another process, and no server answers at ${serverUrl}: try again when it is done.`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Runs a registry command; a refusal ends the process with its reason. */
async function tools(cmd: ToolCommand): Promise<ToolCommandResult> {
  try {
    return await onRegistry((r) => r.tools(cmd));
  } catch (err) {
    if (err instanceof ToolStoreError || err instanceof Refused) fail(err.message);
    throw err;
  }
}

const describeTool = (t: ListedTool) =>
  `${t.key}\tLTI ${t.version}\t${t.name}\t${t.version === "1.3" ? `client ${t.clientId}, deployment ${t.deploymentId}` : `consumer key ${t.consumerKey}`}\t${t.launchUrl}`;

async function list() {
  const result = await tools({ command: "list" });
  const listed = result.command === "list" ? result.tools : [];
  if (listed.length === 0) console.log("No tools are registered.");
  for (const t of listed) console.log(describeTool(t));
}

async function remove() {
  const key = rest[0] ?? fail("Usage: npm run lti:tool -- remove <key>");
  await tools({ command: "remove", key });
  console.log(`Removed ${key}. Activities that launch it say the tool is not registered until it is added again.`);
}

async function add() {
  const { values } = parseArgs({
    args: rest,
    options: {
      key: { type: "string" },
      name: { type: "string" },
      version: { type: "string", default: "1.3" },
      "client-id": { type: "string" },
      "deployment-id": { type: "string" },
      "login-url": { type: "string" },
      "launch-url": { type: "string" },
      "jwks-url": { type: "string" },
      "public-key": { type: "string" },
      "redirect-uri": { type: "string", multiple: true },
      domain: { type: "string", multiple: true },
      "consumer-key": { type: "string" },
      secret: { type: "string" },
      allow: { type: "string" },
      sandbox: { type: "string" },
    },
  });
  const parsed = ltiToolSchema.safeParse({
    key: values.key,
    name: values.name ?? values.key,
    version: values.version,
    clientId: values["client-id"],
    deploymentId: values["deployment-id"],
    loginUrl: values["login-url"],
    launchUrl: values["launch-url"],
    jwksUrl: values["jwks-url"],
    publicJwk: values["public-key"] ? JSON.parse(readFileSync(values["public-key"], "utf8")) : undefined,
    redirectUris: values["redirect-uri"] ?? [],
    domains: values.domain ?? [],
    consumerKey: values["consumer-key"],
    secret: values.secret,
    allow: values.allow,
    sandbox: values.sandbox,
  });
  if (!parsed.success) fail(parsed.error.issues.map((i) => `--${i.path.join(".")}: ${i.message}`).join("\n"));
  // Checked here first (no database needed to say what is missing), and again where it is stored.
  const problems = toolProblems(parsed.data);
  if (problems.length) fail(problems.join("\n"));
  const result = await tools({ command: "add", tool: parsed.data });
  const replaced = result.command === "add" && result.replaced;
  console.log(`${replaced ? "Replaced" : "Registered"} ${parsed.data.key} (LTI ${parsed.data.version}).`);
  const warning = httpWarning(parsed.data);
  if (warning) console.warn(warning);
}

/** `--custom k=v` pairs as an object; a pair without "=" is refused. */
function customPairs(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) fail(`--custom ${pair}: write it as name=value.`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

async function attachOrDetach(name: "attach" | "detach") {
  const { positionals, values } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      course: { type: "string" },
      activity: { type: "string" },
      custom: { type: "string", multiple: true },
    },
  });
  const usage = `Usage: npm run lti:tool -- ${name} <key> --course CODE [--activity ID|CODE]${name === "attach" ? " [--custom name=value …]" : ""}`;
  if (positionals.length !== 1 || !values.course) fail(usage);
  if (name === "detach" && values.custom) fail(`${usage}\n--custom is for attach.`);
  const parsed = attachmentCommand.safeParse({
    command: name,
    key: positionals[0],
    course: values.course,
    activity: values.activity,
    ...(name === "attach" ? { custom: customPairs(values.custom ?? []) } : {}),
  });
  if (!parsed.success) fail(parsed.error.issues.map((i) => `${i.path.join(".") || name}: ${i.message}`).join("\n"));
  let result: unknown;
  let tool: ListedTool | undefined;
  try {
    result = await onRegistry(async (r) => {
      const done = await r.attachments(parsed.data);
      if (name === "attach") {
        const listed = await r.tools({ command: "list" });
        tool = listed.command === "list" ? listed.tools.find((t) => t.key === parsed.data.key) : undefined;
      }
      return done;
    });
  } catch (err) {
    if (err instanceof AttachError || err instanceof Refused) fail(`Refused: ${err.message}`);
    fail(String((err as Error).stack ?? err));
  }
  console.log(JSON.stringify(result, null, 2));
  const warning = tool ? httpWarning(tool) : null;
  if (warning) console.warn(warning);
}

if (command === "list") await list();
else if (command === "remove") await remove();
else if (command === "add") await add();
else if (command === "attach" || command === "detach") await attachOrDetach(command);
else
  fail(
    "Usage: npm run lti:tool -- add --key … | list | remove <key> | attach <key> --course CODE … | detach <key> --course CODE …",
  );
