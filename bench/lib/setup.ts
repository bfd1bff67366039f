/**
 * Steps every bench script shares: run a command, seed the big data set once, sign in like a browser
 * without JavaScript.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { unescapeHtml, type Browser } from "./http";

/** Runs a command in `cwd` with the bench's terminal; rejects unless it exits 0. */
export function run(command: string, argv: string[], cwd = process.cwd()): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, argv, { cwd, stdio: "inherit" });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      code === 0
        ? resolvePromise()
        : reject(new Error(`${relative(cwd, argv[1] ?? argv[0] ?? command)} failed (code ${code}, signal ${signal})`)),
    );
  });
}

/** The big data set in `dataDir`, seeded once and kept between runs (`fresh` starts over). */
export async function ensureBigData(options: {
  root: string;
  dataDir: string;
  courses: number;
  aggregates: number;
  fresh: boolean;
  say: (line: string) => void;
}): Promise<void> {
  const { root, dataDir, say } = options;
  // With DATABASE_URL (the bench run against PostgreSQL) the data goes there: a marker per database.
  const url = process.env.DATABASE_URL;
  const marker = join(
    dataDir,
    url ? `seeded-postgres-${createHash("sha256").update(url).digest("hex").slice(0, 12)}.json` : "seeded.json",
  );
  if (options.fresh && existsSync(dataDir)) {
    say(`--fresh: removing ${relative(root, dataDir)}`);
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (existsSync(marker)) {
    say(`big data already in ${relative(root, dataDir)} (--fresh to seed again)`);
    return;
  }
  const script = join(root, "api", "demo", "seed-big.ts");
  if (!existsSync(script)) throw new Error(`${relative(root, script)} is missing: it seeds the big data set`);
  say(
    `seeding ${options.courses} courses and ${options.aggregates} enrolments into ${url ? "DATABASE_URL" : relative(root, dataDir)}…`,
  );
  mkdirSync(dataDir, { recursive: true });
  const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
  // = npx tsx demo/seed-big.ts --data-dir DIR (with the counts spelled out), without npx.
  const counts = ["--courses", String(options.courses), "--aggregates", String(options.aggregates)];
  await run(process.execPath, [tsxCli, script, "--data-dir", dataDir, ...counts], root);
  const seeded = { courses: options.courses, aggregates: options.aggregates, seededAt: new Date().toISOString() };
  writeFileSync(marker, `${JSON.stringify(seeded, null, 2)}\n`);
}

/** Signs in like a browser without JavaScript: the app's login, the provider's form, the callback. */
export async function signIn(
  browser: Browser,
  account: { email: string; password: string },
  say: (line: string) => void,
): Promise<void> {
  const start = await browser.navigate("/oidc/login?redirectUrl=/learn/courses");
  if (start.status !== 200 || !start.url.pathname.startsWith("/idp/interaction/")) {
    throw new Error(
      `expected the provider's sign-in form, got ${start.status} at ${start.url.pathname} (${start.hops.join(" → ")})`,
    );
  }
  // The sign-in form is the page's POST form (the language menu above it is a GET form).
  const action = /<form\b[^>]*\bmethod="post"[^>]*\baction="([^"]+)"/i.exec(start.body)?.[1];
  if (!action) throw new Error(`no sign-in form at ${start.url.pathname}`);
  const landed = await browser.navigate(unescapeHtml(action), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: browser.origin },
    body: new URLSearchParams(account).toString(),
  });
  if (!browser.jar.has("learn_session")) {
    throw new Error(
      `sign-in as ${account.email} failed: ${landed.status} at ${landed.url.pathname} (${landed.hops.join(" → ")}), no learn_session cookie`,
    );
  }
  if (landed.status !== 200 || !landed.url.pathname.startsWith("/learn")) {
    throw new Error(`sign-in ended at ${landed.status} ${landed.url.pathname} (${landed.hops.join(" → ")})`);
  }
  say(`signed in as ${account.email} (${landed.hops.length} redirects, landed on ${landed.url.pathname})`);
}
