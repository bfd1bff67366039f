/**
 * `npm run ops -- lti <command>` (alias `npm run lti:tool -- …`; decisions 023, 041, 043): the LTI tool
 * registry — in the database, so every node launches the same tools, and running servers learn of a
 * change at once (the change notice "lti-tools") — and which activity launches which tool. A
 * `DATA_DIR/lti-tools.json` from before the registry moved to the database is taken over first.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { AttachError, attachmentCommand, runAttachmentCommand, type AttachmentCommand } from "../../api/lti/attach";
import { listStoredTools, ltiToolSchema, registrySnapshot, toolProblems, type LtiTool } from "../../api/lti/registry";
import {
  runToolCommand,
  takeOverToolsFile,
  ToolStoreError,
  TOOLS_FILE,
  type ListedTool,
  type ToolCommand,
  type ToolCommandResult,
} from "../../api/lti/tool-store";
import { onDatabaseOrServer, Refused, UsageError, type OperatorEnv } from "../database-or-server";

const USAGE = `npm run lti:tool -- <command>
  add --key lab --name "Lab" --version 1.3 --client-id lab-1 --deployment-id d1 --login-url URL
      --launch-url URL (--jwks-url URL | --public-key jwk.json) --redirect-uri URL [--domain D …]
  add --key quiz --name "Quiz" --version 1.1 --launch-url URL --consumer-key quiz --secret s3cret
      (either version: --allow "camera; microphone" --sandbox "allow-popups" for the tool's frame;
       --privacy anonymous|name|email|public: what the tool learns of the person, by default the user id only)
  list
  remove <key>
  attach <key> --course CODE [--activity ID|CODE] [--custom name=value …]
  detach <key> --course CODE [--activity ID|CODE]`;

/**
 * An `http:` tool opens in the course's frames only where the app itself is `http:` (a local setup):
 * an `https:` page may not frame an `http:` one (mixed content), and browsers warn before a form is sent
 * to it. Said, not refused: the operator may be about to change APP_URL.
 */
function httpWarning(
  appUrl: string,
  tool: Pick<LtiTool, "key" | "launchUrl" | "loginUrl" | "redirectUris">,
): string | null {
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

function onRegistry<T>(ops: OperatorEnv, work: (registry: Registry) => Promise<T>): Promise<T> {
  return onDatabaseOrServer(ops, {
    database: async (db) => {
      const file = resolve(ops.dataDir, TOOLS_FILE);
      const took = await takeOverToolsFile(db, file);
      if (took)
        console.log(
          `Took over ${took.added.length + took.same.length} tools from ${file} into the database (the file is now ${took.movedTo})${took.leftOut.length ? `; left out: ${took.leftOut.map((l) => `${l.key} (${l.reason})`).join(", ")}` : ""}.`,
        );
      return work({
        tools: (cmd) => runToolCommand(db.db, cmd),
        // The registry as this process knows it: the database's (the server adds the demo's, if any).
        attachments: async (cmd) =>
          runAttachmentCommand(db.db, registrySnapshot([], await listStoredTools(db.db)), cmd),
      });
    },
    server: (ask) =>
      work({
        tools: (cmd) => ask("/lti-tools", cmd),
        attachments: (cmd) => ask("/lti-attachments", cmd),
      }),
  });
}

/** Runs a registry command; the registry's refusal becomes the command's. */
async function tools(ops: OperatorEnv, cmd: ToolCommand): Promise<ToolCommandResult> {
  try {
    return await onRegistry(ops, (r) => r.tools(cmd));
  } catch (err) {
    throw err instanceof ToolStoreError ? new Refused(err.message) : err;
  }
}

const describeTool = (t: ListedTool) =>
  `${t.key}\tLTI ${t.version}\t${t.name}\t${t.version === "1.3" ? `client ${t.clientId}, deployment ${t.deploymentId}` : `consumer key ${t.consumerKey}`}\t${t.launchUrl}`;

async function list(ops: OperatorEnv) {
  const result = await tools(ops, { command: "list" });
  const listed = result.command === "list" ? result.tools : [];
  if (listed.length === 0) console.log("No tools are registered.");
  for (const t of listed) console.log(describeTool(t));
}

async function remove(ops: OperatorEnv, args: string[]) {
  const key = args[0];
  if (!key || args.length !== 1) throw new UsageError("npm run lti:tool -- remove <key>");
  await tools(ops, { command: "remove", key });
  console.log(`Removed ${key}. Activities that launch it say the tool is not registered until it is added again.`);
}

async function add(ops: OperatorEnv, args: string[]) {
  const { values } = parseArgs({
    args,
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
      privacy: { type: "string" },
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
    privacy: values.privacy,
  });
  if (!parsed.success)
    throw new Refused(parsed.error.issues.map((i) => `--${i.path.join(".")}: ${i.message}`).join("\n"));
  // Checked here first (no database needed to say what is missing), and again where it is stored.
  const problems = toolProblems(parsed.data);
  if (problems.length) throw new Refused(problems.join("\n"));
  const result = await tools(ops, { command: "add", tool: parsed.data });
  const replaced = result.command === "add" && result.replaced;
  console.log(`${replaced ? "Replaced" : "Registered"} ${parsed.data.key} (LTI ${parsed.data.version}).`);
  const warning = httpWarning(ops.appUrl, parsed.data);
  if (warning) console.warn(warning);
}

/** `--custom k=v` pairs as an object; a pair without "=" is refused. */
function customPairs(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new Refused(`--custom ${pair}: write it as name=value.`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

async function attachOrDetach(ops: OperatorEnv, name: "attach" | "detach", args: string[]) {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      course: { type: "string" },
      activity: { type: "string" },
      custom: { type: "string", multiple: true },
    },
  });
  const usage = `npm run lti:tool -- ${name} <key> --course CODE [--activity ID|CODE]${name === "attach" ? " [--custom name=value …]" : ""}`;
  if (positionals.length !== 1 || !values.course) throw new UsageError(usage);
  if (name === "detach" && values.custom) throw new UsageError(`${usage}\n--custom is for attach.`);
  const parsed = attachmentCommand.safeParse({
    command: name,
    key: positionals[0],
    course: values.course,
    activity: values.activity,
    ...(name === "attach" ? { custom: customPairs(values.custom ?? []) } : {}),
  });
  if (!parsed.success)
    throw new Refused(parsed.error.issues.map((i) => `${i.path.join(".") || name}: ${i.message}`).join("\n"));
  let tool: ListedTool | undefined;
  const result = await onRegistry(ops, async (r) => {
    const done = await r.attachments(parsed.data);
    if (name === "attach") {
      const listed = await r.tools({ command: "list" });
      tool = listed.command === "list" ? listed.tools.find((t) => t.key === parsed.data.key) : undefined;
    }
    return done;
  }).catch((err: unknown) => {
    throw err instanceof AttachError ? new Refused(err.message) : err;
  });
  console.log(JSON.stringify(result, null, 2));
  const warning = tool ? httpWarning(ops.appUrl, tool) : null;
  if (warning) console.warn(warning);
}

async function main(args: string[], ops: OperatorEnv): Promise<void> {
  const [command, ...rest] = args;
  if (command === "list") return list(ops);
  if (command === "remove") return remove(ops, rest);
  if (command === "add") return add(ops, rest);
  if (command === "attach" || command === "detach") return attachOrDetach(ops, command, rest);
  throw new UsageError(USAGE);
}

/** The area of `npm run ops`. */
export const command = { usage: USAGE, main };
