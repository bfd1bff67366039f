/**
 * The LTI tool registry (issue 14 item 1, decision 023): what the operator registered with
 * `npm run lti:tool`, kept in `DATA_DIR/lti-tools.json` beside the platform's keys, plus the tools
 * the server gives directly (the demo's, `api/demo/tools/registry.ts`). Read again when the file changes, so a
 * tool added while the server runs is launched at once.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
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
  out.push(...framePolicyProblems(tool));
  return out;
}

export const TOOLS_FILE = "lti-tools.json";

export function readToolsFile(file: string): LtiTool[] {
  if (!existsSync(file)) return [];
  return parseToolsFile(readFileSync(file, "utf8"));
}

export function writeToolsFile(file: string, tools: LtiTool[]) {
  // Whole or not at all: a crash halfway must not leave a registry that cannot be read (issue 29).
  writeFileAtomicSync(file, `${JSON.stringify({ tools }, null, 2)}\n`, { mode: 0o600 });
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
          if (problems.length) console.warn(`[lti] tool ${t.key} left out of the registry: ${problems.join("; ")}`);
          return problems.length === 0;
        });
        cached = { mtime, tools };
      } catch (err) {
        console.warn(`[lti] ${options.file} is not a valid registry:`, (err as Error).message);
        cached = { mtime, tools: [] };
      }
    }
    return cached.tools;
  };
  const all = () => [...(options.tools ?? []), ...fromFile()];
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
