/**
 * The LTI tool registry (issue 14 item 1, decision 023): what the operator registered with
 * `npm run lti:tool`, kept in `DATA_DIR/lti-tools.json` beside the platform's keys, plus the tools
 * the server gives directly (the demo's, `api/demo/tools/registry.ts`). Read again when the file changes, so a
 * tool added while the server runs is launched at once.
 */
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { log } from "../db/log";
import { writeFileAtomicSync } from "../files/temporary";
import { z } from "zod";
import { framePolicyProblems } from "../../domain/lti";

const httpUrl = z.url({ protocol: /^https?$/ });

export const ltiToolSchema = z.strictObject({
  /** The name activities use to point at the tool (`content.tool`). */
  key: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/),
  name: z.string().min(1).max(200),
  version: z.enum(["1.3", "1.1"]),
  /** LTI 1.3: the client id the platform gave the tool, and its deployment. */
  clientId: z.string().min(1).max(200).optional(),
  deploymentId: z.string().min(1).max(200).optional(),
  /** LTI 1.3: the tool's OIDC third-party login initiation URL. */
  loginUrl: httpUrl.optional(),
  /** The launch (target link) URL. */
  launchUrl: httpUrl,
  /** LTI 1.3: where the tool publishes its keys, or one public key (JWK). */
  jwksUrl: httpUrl.optional(),
  publicJwk: z.record(z.string(), z.unknown()).optional(),
  /** LTI 1.3: redirect URIs the tool may ask the id_token to be posted to (exact match). */
  redirectUris: z.array(httpUrl).default([]),
  /** Origins the tool's pages and messages come from (frames, postMessage); by default the launch URL's. */
  domains: z.array(z.string()).default([]),
  /** LTI 1.1: the OAuth 1.0a consumer key and secret. */
  consumerKey: z.string().min(1).max(200).optional(),
  secret: z.string().min(1).max(500).optional(),
  /** iframe `allow` (Permissions Policy) and `sandbox` tokens for this tool (item 5). */
  allow: z.string().max(500).optional(),
  sandbox: z.string().max(500).optional(),
});
export type LtiTool = z.infer<typeof ltiToolSchema>;

const fileSchema = z.strictObject({ tools: z.array(ltiToolSchema) });

/** A tool's problems as one line each, for the CLI (an LTI 1.3 tool needs its keys and URLs). */
export function toolProblems(tool: LtiTool): string[] {
  const out: string[] = [];
  if (tool.version === "1.3") {
    if (!tool.clientId) out.push("an LTI 1.3 tool needs --client-id");
    if (!tool.deploymentId) out.push("an LTI 1.3 tool needs --deployment-id");
    if (!tool.loginUrl) out.push("an LTI 1.3 tool needs --login-url");
    if (!tool.jwksUrl && !tool.publicJwk) out.push("an LTI 1.3 tool needs --jwks-url or --public-key");
    if (tool.redirectUris.length === 0) out.push("an LTI 1.3 tool needs at least one --redirect-uri");
  } else if (!tool.consumerKey || !tool.secret) out.push("an LTI 1.1 tool needs --consumer-key and --secret");
  if (tool.key.startsWith(DEMO_KEY_PREFIX))
    out.push(`--key: keys beginning with "${DEMO_KEY_PREFIX}" belong to the demo's tools; choose another key`);
  out.push(...framePolicyProblems(tool));
  return out;
}

/** Keys that begin so belong to the demo's tools (api/demo/data/lti-tools.json): the operator's may not. */
const DEMO_KEY_PREFIX = "demo-";

/**
 * Why `tool` cannot stand beside `others` (null: it can): the same key, LTI 1.3 client id or LTI 1.1
 * consumer key as one of them — the platform finds tools by these.
 */
export function clashWith(tool: LtiTool, others: readonly LtiTool[]): string | null {
  for (const o of others) {
    if (o === tool) continue;
    if (o.key === tool.key)
      return `the key "${tool.key}" is ${o.key.startsWith(DEMO_KEY_PREFIX) ? "a demo tool's" : "taken"}`;
    if (tool.version === "1.3" && o.version === "1.3" && tool.clientId && o.clientId === tool.clientId)
      return `the client id "${tool.clientId}" is the tool ${o.key}'s`;
    if (tool.version === "1.1" && o.version === "1.1" && tool.consumerKey && o.consumerKey === tool.consumerKey)
      return `the consumer key "${tool.consumerKey}" is the tool ${o.key}'s`;
  }
  return null;
}

export const TOOLS_FILE = "lti-tools.json";

export function readToolsFile(file: string): LtiTool[] {
  if (!existsSync(file)) return [];
  return parseToolsFile(readFileSync(file, "utf8"));
}

/** Writes the file whole: a temporary file renamed over it, so a reader never sees half of one. */
export function writeToolsFile(file: string, tools: LtiTool[]) {
  // Whole or not at all: a crash halfway must not leave a registry that cannot be read (issue 29).
  writeFileAtomicSync(file, `${JSON.stringify({ tools }, null, 2)}\n`, { mode: 0o600 });
}

/**
 * Reads, changes and writes the file under a lock (`<file>.lock`, made exclusively), so two commands at
 * once do not lose each other's change. A lock older than 30 s is a crashed command's and is taken over.
 */
export function updateToolsFile<T>(file: string, change: (tools: LtiTool[]) => { tools: LtiTool[]; result: T }): T {
  const lock = `${file}.lock`;
  const until = Date.now() + 10_000;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx"));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 30_000) rmSync(lock, { force: true });
      else if (Date.now() > until) throw new Error(`${lock} is held by another command; try again.`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
  try {
    const { tools, result } = change(readToolsFile(file));
    writeToolsFile(file, tools);
    return result;
  } finally {
    rmSync(lock, { force: true });
  }
}

/** A registry file's text (`{ tools: [...] }`) as tools. */
export function parseToolsFile(text: string): LtiTool[] {
  return fileSchema.parse(JSON.parse(text)).tools;
}

export interface LtiRegistryOptions {
  /** DATA_DIR's registry file. */
  file?: string;
  /** Tools given directly (the demo's, tests'). */
  tools?: LtiTool[];
}

/** The registry as the API reads it: the file (re-read when it changes) and the tools given. */
function ltiRegistry(options: LtiRegistryOptions = {}) {
  let cached: { mtime: number; tools: LtiTool[] } | null = null;
  const fromFile = (): LtiTool[] => {
    if (!options.file || !existsSync(options.file)) return [];
    const mtime = statSync(options.file).mtimeMs;
    if (!cached || cached.mtime !== mtime) {
      try {
        // A hand-edited entry whose frame policy a browser would not take is left out, and said.
        const tools = readToolsFile(options.file).filter((t) => {
          const problems = framePolicyProblems(t);
          if (problems.length) log().warn({ tool: t.key, problems }, "lti: tool left out of the registry");
          return problems.length === 0;
        });
        cached = { mtime, tools };
      } catch (err) {
        log().warn({ err, file: options.file }, "lti: the file is not a valid registry");
        cached = { mtime, tools: [] };
      }
    }
    return cached.tools;
  };
  // A registered tool that takes the key, client id or consumer key of a tool the server gives (the
  // demo's) would be shadowed without a word: it is left out, and said, each time the file is read.
  let checked: LtiTool[] | null = null;
  let kept: LtiTool[] = [];
  const registered = () => {
    const tools = fromFile();
    if (tools !== checked) {
      checked = tools;
      kept = tools.filter((t) => {
        const clash = clashWith(t, options.tools ?? []);
        if (clash) log().error({ tool: t.key, file: options.file, clash }, "lti: tool left out of the registry");
        return !clash;
      });
    }
    return kept;
  };
  const all = () => [...(options.tools ?? []), ...registered()];
  return {
    all,
    byKey: (key: string) => all().find((t) => t.key === key) ?? null,
    byClientId: (clientId: string) => all().find((t) => t.version === "1.3" && t.clientId === clientId) ?? null,
    byConsumerKey: (key: string) => all().find((t) => t.version === "1.1" && t.consumerKey === key) ?? null,
  };
}
export type LtiRegistry = ReturnType<typeof ltiRegistry>;

const registries = new WeakMap<object, LtiRegistry>();
/** One registry per API instance (its deps), so the file is stat'ed, not parsed, per request. */
export function registryOf(deps: { lti?: LtiRegistryOptions }): LtiRegistry {
  let r = registries.get(deps);
  if (!r) {
    r = ltiRegistry(deps.lti);
    registries.set(deps, r);
  }
  return r;
}
