/**
 * Renders certificate files in a process of its own (`render-child.mjs`): one child per node,
 * started on first use; requests queue in it one after another. It ends after 5 s without work.
 *
 * A process, not a thread (decision 038, addendum 11): the fonts, PDF and PNG libraries (resvg is
 * native code) allocate ~140 MB, and a thread's native memory, once freed, stayed with the node's
 * allocator: a PostgreSQL node that had rendered the seed's certificates read ~50 MB more for good
 * (311 against 265 MB after the bench's warm-up). A process gives all of it back when it ends.
 * The jobs render in batches a minute apart (api/jobs/run.ts), so a start (~0.5 s) per batch is cheap.
 */
import { type ChildProcess, fork } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { CertificateFacts } from "./certificate-render";

type Reply = { id: number; pdf?: Uint8Array; png?: Uint8Array; error?: string };

let child: ChildProcess | null = null;
let idle: ReturnType<typeof setTimeout> | null = null;
/** How long the process waits for more work before it ends (a later file starts it again, ~0.5 s). */
let idleMs = 5_000;

/** Another wait before the idle process ends (tests). */
export function setRendererIdleMs(ms: number): void {
  idleMs = ms;
}
let next = 1;
const waiting = new Map<number, { resolve: (r: { pdf: Buffer; png: Buffer }) => void; reject: (e: Error) => void }>();

/** Set by the server build (scripts/build-server.mjs): this code runs bundled, compiled modules lie beside it. */
declare const SERVER_BUILD: boolean | undefined;

/**
 * The renderer module the child loads: `certificate-render.ts` when this runs as TypeScript (tsx,
 * vitest), its compiled form beside the bundle in the server build (no transpiler in production).
 */
function rendererModule(): string {
  if (typeof SERVER_BUILD !== "undefined" && SERVER_BUILD)
    return pathToFileURL(join(import.meta.dirname, "certificate-render.js")).href;
  return new URL("./certificate-render.ts", import.meta.url).href;
}

/**
 * The node's own flags go to the child (heap limits, a loader under tsx), not those that open a port
 * or write profiles: a second inspector on the same port would fail the child.
 */
function childFlags(): string[] {
  return process.execArgv.filter((flag) => !/^--(inspect|debug|cpu-prof|heap-prof|prof\b)/.test(flag));
}

/** The channel keeps the node alive only while a file is being rendered (a CLI waits for its files). */
function holdOpen(c: ChildProcess, hold: boolean): void {
  const channel = c.channel as { ref(): void; unref(): void } | null | undefined;
  if (hold) channel?.ref();
  else channel?.unref();
}

function start(): ChildProcess {
  const c = fork(fileURLToPath(new URL("./render-child.mjs", import.meta.url)), [], {
    execArgv: childFlags(),
    env: { ...process.env, CERTIFICATE_RENDER_MODULE: rendererModule() },
    // Buffers cross as they are (structured clone), not as JSON arrays of numbers.
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  c.unref();
  c.on("message", (reply: Reply) => {
    const job = waiting.get(reply.id);
    if (!job) return;
    waiting.delete(reply.id);
    if (reply.error || !reply.pdf || !reply.png) job.reject(new Error(`certificate rendering failed: ${reply.error}`));
    else job.resolve({ pdf: Buffer.from(reply.pdf), png: Buffer.from(reply.png) });
    if (waiting.size === 0) idleThenEnd(c);
  });
  const fail = (error: Error) => {
    for (const job of waiting.values()) job.reject(error);
    waiting.clear();
    if (child === c) child = null;
  };
  c.on("error", fail);
  c.on("exit", (code, signal) =>
    fail(new Error(`certificate renderer exited (${signal ?? `code ${code}`}) before it answered`)),
  );
  return c;
}

/** Ends the process when no work came for `idleMs`. */
function idleThenEnd(c: ChildProcess): void {
  holdOpen(c, false);
  if (idle) clearTimeout(idle);
  idle = setTimeout(() => {
    idle = null;
    if (child !== c || waiting.size > 0) return;
    child = null;
    // Closing the channel ends the child (render-child.mjs exits on 'disconnect').
    if (c.connected) c.disconnect();
  }, idleMs);
  idle.unref();
}

/** Whether the renderer's process is running (tests). */
export function rendererRunning(): boolean {
  return child !== null;
}

/** The renderer's process id while it runs (tests). */
export function rendererPid(): number | undefined {
  return child?.pid;
}

export function renderCertificateFiles(facts: CertificateFacts): Promise<{ pdf: Buffer; png: Buffer }> {
  if (idle) clearTimeout(idle);
  idle = null;
  child ??= start();
  const id = next++;
  const c = child;
  holdOpen(c, true);
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    c.send({ id, facts }, (error) => {
      if (!error || !waiting.has(id)) return;
      waiting.delete(id);
      reject(new Error(`certificate renderer not reachable: ${error.message}`));
    });
  });
}
