/**
 * The LTI tool registry (issue 14 item 1, decisions 023 and 043): what the operator registered with
 * `npm run lti:tool`, kept in the database (`lti_tools`, `./tool-store.ts`), plus the tools the server
 * gives directly (the demo's, `demo/tools/registry.ts`). Each API instance keeps the tools it read
 * until the database says they changed (the change notice "lti-tools", or "all" after a lost LISTEN
 * connection, decision 019): a tool added through any node, or by the command on any machine, is
 * launched by every node at once.
 */
import { log } from "../db/log";
import { z } from "zod";
import { LTI_PRIVACY, framePolicyProblems } from "../../domain/lti";
import { asc } from "drizzle-orm";
import type { Database, Db } from "../db/client";
import { ltiTools } from "../db/schema";

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
  /** What the tool is told about the person (`LTI_PRIVACY`): absent, "anonymous" — the user id only. */
  privacy: z.enum(LTI_PRIVACY).optional(),
});
export type LtiTool = z.infer<typeof ltiToolSchema>;

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

/** Keys that begin so belong to the demo's tools (demo/data/lti-tools.json): the operator's may not. */
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

/**
 * The registered tools, in the order they were added (one statement). A row that no longer reads as a
 * tool (written by hand, or by a newer version) is left out, and said.
 */
export async function listStoredTools(db: Db): Promise<LtiTool[]> {
  const rows = await db
    .select({ key: ltiTools.key, definition: ltiTools.definition })
    .from(ltiTools)
    .orderBy(asc(ltiTools.createdAt), asc(ltiTools.key));
  return rows.flatMap((row) => {
    const parsed = ltiToolSchema.safeParse(row.definition);
    if (parsed.success && parsed.data.key === row.key) return [parsed.data];
    log().warn({ tool: row.key, problems: parsed.error?.issues }, "lti: a stored tool is not valid; left out");
    return [];
  });
}

export interface LtiRegistryOptions {
  /** Tools given directly (the demo's, tests'); the operator's are in the database. */
  tools?: LtiTool[];
}

/** The registry at one moment: the tools given and the registered ones, looked up by the platform's keys. */
export interface LtiRegistry {
  all(): LtiTool[];
  byKey(key: string): LtiTool | null;
  byClientId(clientId: string): LtiTool | null;
  byConsumerKey(key: string): LtiTool | null;
}

/**
 * The registry as read now: the given tools, then the registered ones that a browser can frame and
 * that take none of a given tool's key, client id or consumer key (each left out with its reason in
 * the log: a registered tool would otherwise shadow a demo tool without a word).
 */
export function registrySnapshot(given: readonly LtiTool[], registered: readonly LtiTool[]): LtiRegistry {
  const kept = registered.filter((t) => {
    const problems = framePolicyProblems(t);
    if (problems.length) {
      log().warn({ tool: t.key, problems }, "lti: tool left out of the registry");
      return false;
    }
    const clash = clashWith(t, given);
    if (clash) log().error({ tool: t.key, clash }, "lti: tool left out of the registry");
    return !clash;
  });
  const tools = [...given, ...kept];
  return {
    all: () => [...tools],
    byKey: (key) => tools.find((t) => t.key === key) ?? null,
    byClientId: (clientId) => tools.find((t) => t.version === "1.3" && t.clientId === clientId) ?? null,
    byConsumerKey: (key) => tools.find((t) => t.version === "1.1" && t.consumerKey === key) ?? null,
  };
}

/**
 * The registry of one API instance: the database's tools read once (one statement) and kept until a
 * change notice about them. A notice that arrives while they are being read makes the result
 * unkeepable (it may predate the change): the next caller reads again.
 */
function liveRegistry(database: Database, options: LtiRegistryOptions) {
  const given = options.tools ?? [];
  let current: Promise<LtiRegistry> | null = null;
  let notices = 0;
  database.changes.subscribe((change) => {
    if (change.kind !== "ltiTools" && change.kind !== "all") return;
    notices++;
    current = null;
  });
  return (): Promise<LtiRegistry> => {
    if (current) return current;
    const heard = notices;
    const reading: Promise<LtiRegistry> = listStoredTools(database.db).then((tools) => {
      if (notices !== heard && current === reading) current = null;
      return registrySnapshot(given, tools);
    });
    current = reading;
    reading.catch(() => {
      if (current === reading) current = null;
    });
    return reading;
  };
}

const registries = new WeakMap<object, () => Promise<LtiRegistry>>();
/** The registry of an API instance (its deps), as it stands: read from the database only after a change. */
export function registryOf(deps: { lti?: LtiRegistryOptions; database: Database }): Promise<LtiRegistry> {
  let r = registries.get(deps);
  if (!r) {
    r = liveRegistry(deps.database, deps.lti ?? {});
    registries.set(deps, r);
  }
  return r();
}
