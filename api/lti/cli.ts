/**
 * `npm run lti:tool -- add|list|remove|attach|detach` (issue 14 item 1, issue 32 item 2; decision 023,
 * 041): the operator's LTI tool registry in `DATA_DIR/lti-tools.json`, and which activity launches
 * which tool. The running server reads the file again when it changes.
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
 * attach/detach work on DATABASE_URL's database, or on the embedded one when no server holds it, and
 * otherwise ask the running server (loopback, the operator token of DATA_DIR/secrets.json) — as
 * `npm run content:import-scorm` does. A refusal prints why and changes nothing (exit status 1).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../db/client";
import { loadSecrets } from "../runtime";
import { AttachError, attachmentCommand, runAttachmentCommand, type AttachmentCommand } from "./attach";
import {
  clashWith,
  ltiToolSchema,
  readToolsFile,
  toolProblems,
  TOOLS_FILE,
  updateToolsFile,
  type LtiTool,
} from "./registry";

const dataDir = resolve(process.env.DATA_DIR ?? "./data");
const file = resolve(dataDir, TOOLS_FILE);
const port = Number(process.env.PORT ?? 3000);
const appUrl = (process.env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
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
function httpWarning(tool: LtiTool): string | null {
  if (!appUrl.startsWith("https:")) return null;
  const plain = [tool.launchUrl, tool.loginUrl, ...tool.redirectUris].filter((u) => u?.startsWith("http:"));
  if (plain.length === 0) return null;
  return `Warning: ${tool.key} is served over http: (${plain[0]}) but APP_URL is https: — browsers will not open it in the course's frame (mixed content) and warn before sending the launch to it. Register its https: address.`;
}

function list() {
  const tools = readToolsFile(file);
  if (tools.length === 0) console.log(`No tools registered in ${file}.`);
  for (const t of tools)
    console.log(
      `${t.key}\tLTI ${t.version}\t${t.name}\t${t.version === "1.3" ? `client ${t.clientId}, deployment ${t.deploymentId}` : `consumer key ${t.consumerKey}`}\t${t.launchUrl}`,
    );
}

function remove() {
  const key = rest[0] ?? fail("Usage: npm run lti:tool -- remove <key>");
  const found = updateToolsFile(file, (tools) => ({
    tools: tools.filter((t) => t.key !== key),
    result: tools.some((t) => t.key === key),
  }));
  if (!found) fail(`No tool "${key}" in ${file}.`);
  console.log(`Removed ${key}. Activities that launch it say the tool is not registered until it is added again.`);
}

function add() {
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
  const problems = toolProblems(parsed.data);
  if (problems.length) fail(problems.join("\n"));
  mkdirSync(dataDir, { recursive: true });
  const tool = parsed.data;
  // Another registered tool with the same client id or consumer key is refused (the key itself is replaced).
  const clash = updateToolsFile(file, (tools) => {
    const others = tools.filter((t) => t.key !== tool.key);
    const found = clashWith(tool, others);
    return { tools: found ? tools : [...others, tool], result: found };
  });
  if (clash) fail(clash);
  console.log(`Registered ${parsed.data.key} (LTI ${parsed.data.version}) in ${file}.`);
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

/** Asks the server that holds the embedded database to run the command. */
async function viaServer(cmd: AttachmentCommand): Promise<unknown> {
  const { operatorToken } = await loadSecrets(dataDir);
  const res = await fetch(`http://127.0.0.1:${new URL(appUrl).port || port}/operator/v1/lti-attachments`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${operatorToken}` },
    body: JSON.stringify(cmd),
  });
  const body = (await res.json()) as { result?: unknown; error?: string };
  if (!res.ok) throw new AttachError("refused", body.error ?? `the server answered ${res.status}`);
  return body.result;
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
  const registered = readToolsFile(file);
  const tool = registered.find((t) => t.key === parsed.data.key);
  let result: unknown;
  try {
    let database;
    try {
      database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: resolve(dataDir, "pglite") });
    } catch (err) {
      if (!/in use by process/.test((err as Error).message)) throw err;
    }
    if (!database) result = await viaServer(parsed.data);
    else
      try {
        await database.migrate();
        // The registry as this process knows it: the file (the server adds the demo's tools, if any).
        result = await runAttachmentCommand(
          database.db,
          { byKey: (key) => registered.find((t) => t.key === key) ?? null },
          parsed.data,
        );
      } finally {
        await database.close();
      }
  } catch (err) {
    fail(err instanceof AttachError ? `Refused: ${err.message}` : String((err as Error).stack ?? err));
  }
  console.log(JSON.stringify(result, null, 2));
  const warning = name === "attach" && tool ? httpWarning(tool) : null;
  if (warning) console.warn(warning);
}

if (command === "list") list();
else if (command === "remove") remove();
else if (command === "add") add();
else if (command === "attach" || command === "detach") await attachOrDetach(command);
else
  fail(
    "Usage: npm run lti:tool -- add --key … | list | remove <key> | attach <key> --course CODE … | detach <key> --course CODE …",
  );
