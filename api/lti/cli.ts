/**
 * `npm run lti:tool -- add|list|remove` (issue 14 item 1, decision 023): the operator's LTI tool
 * registry in `DATA_DIR/lti-tools.json`. The running server reads the file again when it changes.
 *
 *   npm run lti:tool -- add --key lab --name "Lab" --version 1.3 --client-id lab-1 --deployment-id d1 \
 *     --login-url https://lab.example/login --launch-url https://lab.example/launch \
 *     --jwks-url https://lab.example/jwks --redirect-uri https://lab.example/launch
 *   npm run lti:tool -- add --key quiz --name "Quiz" --version 1.1 --launch-url https://quiz.example/lti \
 *     --consumer-key quiz --secret s3cret
 *   (either version: --allow "camera; microphone" --sandbox "allow-popups" for the tool's frame)
 *   npm run lti:tool -- list
 *   npm run lti:tool -- remove lab
 */
import { mkdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { ltiToolSchema, readToolsFile, toolProblems, TOOLS_FILE, writeToolsFile } from "./registry";

const dataDir = resolve(process.env.DATA_DIR ?? "./data");
const file = resolve(dataDir, TOOLS_FILE);
const [command, ...rest] = process.argv.slice(2);

function fail(text: string): never {
  console.error(text);
  process.exit(1);
}

if (command === "list") {
  const tools = readToolsFile(file);
  if (tools.length === 0) console.log(`No tools registered in ${file}.`);
  for (const t of tools)
    console.log(
      `${t.key}\tLTI ${t.version}\t${t.name}\t${t.version === "1.3" ? `client ${t.clientId}, deployment ${t.deploymentId}` : `consumer key ${t.consumerKey}`}\t${t.launchUrl}`,
    );
} else if (command === "remove") {
  const key = rest[0] ?? fail("Usage: npm run lti:tool -- remove <key>");
  const tools = readToolsFile(file);
  if (!tools.some((t) => t.key === key)) fail(`No tool "${key}" in ${file}.`);
  writeToolsFile(
    file,
    tools.filter((t) => t.key !== key),
  );
  console.log(`Removed ${key}.`);
} else if (command === "add") {
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
  const tools = readToolsFile(file).filter((t) => t.key !== parsed.data.key);
  writeToolsFile(file, [...tools, parsed.data]);
  console.log(`Registered ${parsed.data.key} (LTI ${parsed.data.version}) in ${file}.`);
} else {
  fail("Usage: npm run lti:tool -- add --key … | list | remove <key>");
}
