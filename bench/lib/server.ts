/**
 * Starts the product as `npm start` runs it (`node build/node/server.js`, the server build of
 * decision 038, with the start script's Node flags) as a child process in its own process group and
 * stops it again, group and all, whatever happens to the bench.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { join } from "node:path";
import { send } from "./http";

export interface RunningServer {
  origin: string;
  port: number;
  pid: number;
  logFile: string;
  /** Resolves once `readyPath` answers 200; rejects if the server exits or the time runs out. */
  ready: Promise<void>;
  /** Stops the server and everything it started; safe to call at any time, more than once. */
  stop(): Promise<void>;
}

/** The first port from `start` on which nothing listens (checked by binding it briefly). */
export async function freePort(start: number, tries = 50): Promise<number> {
  for (let port = start; port < start + tries; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${start}–${start + tries - 1}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Last lines of the server's log, for error messages. */
export function logTail(logFile: string, lines = 30): string {
  try {
    return readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no server log)";
  }
}

/**
 * Spawns the server and returns at once, so the caller can stop it even while it starts (Ctrl-C);
 * await `ready` before using it.
 */
/**
 * What `npm start` gives the server besides its script: the Node flags (V8's heap caps, `--expose-gc`
 * for the collection after a burst) and the
 * settings in the environment (`MALLOC_ARENA_MAX`, `NODE_COMPILE_CACHE`), so the benches measure
 * what operators run.
 */
function startSettings(cwd: string): { flags: string[]; env: Record<string, string> } {
  const start: string = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8")).scripts.start;
  const env = Object.fromEntries(
    [...start.matchAll(/\b(MALLOC_[A-Z_]+|NODE_COMPILE_CACHE)=(\S+)/g)].map((m) => [m[1] as string, m[2] as string]),
  );
  return { flags: start.match(/--max-(?:old|semi)-space-size=\d+|--expose-gc\b/g) ?? [], env };
}

export function startServer(options: {
  cwd: string;
  port: number;
  env: Record<string, string>;
  logFile: string;
  readyPath: string;
  readyTimeoutMs: number;
  /** Where `readyPath` is asked (default the server's own origin; e.g. a proxy in front of it). */
  readyOrigin?: string;
  /** The script to run (default `build/node/server.js`); a TypeScript one runs through tsx. */
  entry?: string;
}): RunningServer {
  const entry = options.entry ?? "build/node/server.js";
  const runner = entry.endsWith(".ts") ? [createRequire(import.meta.url).resolve("tsx/cli")] : [];
  const log = openSync(options.logFile, "w");
  const settings = startSettings(options.cwd);
  const child: ChildProcess = spawn(process.execPath, [...runner, ...settings.flags, entry], {
    cwd: options.cwd,
    env: { ...process.env, ...settings.env, ...options.env, PORT: String(options.port) },
    stdio: ["ignore", log, log],
    // Its own process group: Ctrl-C in the terminal reaches only the bench, which then stops the
    // server itself, and stop() can signal everything it started together.
    detached: true,
  });
  closeSync(log); // the child has its own copy
  if (child.pid === undefined) throw new Error("could not start the server");
  const pid = child.pid;
  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exited = { code, signal };
      resolve();
    }),
  );

  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  };
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      if (!exited) {
        signalGroup("SIGTERM");
        const killed = await Promise.race([exit.then(() => true), sleep(5_000).then(() => false)]);
        if (!killed) {
          signalGroup("SIGKILL");
          await exit;
        }
      }
      // A child of the server may outlive it for a moment; make sure nothing of the group is left.
      signalGroup("SIGKILL");
    })());

  const origin = `http://localhost:${options.port}`;
  const ready = (async () => {
    const deadline = Date.now() + options.readyTimeoutMs;
    for (;;) {
      if (exited) {
        const { code, signal } = exited;
        throw new Error(
          `the server exited before it was ready (code ${code}, signal ${signal}):\n${logTail(options.logFile)}`,
        );
      }
      if (Date.now() > deadline)
        throw new Error(
          `the server did not answer ${options.readyPath} within ${options.readyTimeoutMs / 1000} s:\n${logTail(options.logFile)}`,
        );
      const status = await send(new URL(options.readyPath, options.readyOrigin ?? origin), { timeoutMs: 2_000 }).then(
        (res) => res.status,
        () => 0,
      );
      if (status === 200) return;
      await sleep(250);
    }
  })();
  ready.catch(() => undefined); // handled by whoever awaits it
  return { origin, port: options.port, pid, logFile: options.logFile, ready, stop };
}
