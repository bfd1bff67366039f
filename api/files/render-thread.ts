/**
 * Renders certificate files in a thread of their own (`render-worker.mjs`): one worker per process,
 * started on first use and not keeping the process alive; requests queue in it one after another. It
 * ends after 5 s without work: its fonts, PDF and PNG libraries held ~150 MB that a node which
 * rendered the seed's certificates at its first start kept for good (decision 038, addendum 4). The
 * jobs render in batches a minute apart (api/jobs/run.ts), so a longer wait kept the memory without
 * saving a start (decision 038, addendum 10).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { CertificateFacts } from "./certificate-render";

type Reply = { id: number; pdf?: Uint8Array; png?: Uint8Array; error?: string };

let worker: Worker | null = null;
let idle: ReturnType<typeof setTimeout> | null = null;
/** How long the thread waits for more work before it ends (a later file starts it again, ~0.5 s). */
let idleMs = 5_000;

/** Another wait before the idle thread ends (tests). */
export function setRendererIdleMs(ms: number): void {
  idleMs = ms;
}
let next = 1;
const waiting = new Map<number, { resolve: (r: { pdf: Buffer; png: Buffer }) => void; reject: (e: Error) => void }>();

/** Set by the server build (scripts/build-server.mjs): this code runs bundled, compiled modules lie beside it. */
declare const SERVER_BUILD: boolean | undefined;

/**
 * The renderer module the thread loads: `certificate-render.ts` when this runs as TypeScript (tsx,
 * vitest), its compiled form beside the bundle in the server build (no transpiler in production).
 */
function rendererModule(): string {
  if (typeof SERVER_BUILD !== "undefined" && SERVER_BUILD)
    return pathToFileURL(join(import.meta.dirname, "certificate-render.js")).href;
  return new URL("./certificate-render.ts", import.meta.url).href;
}

function start(): Worker {
  const w = new Worker(new URL("./render-worker.mjs", import.meta.url), { workerData: { module: rendererModule() } });
  w.unref();
  w.on("message", (reply: Reply) => {
    const job = waiting.get(reply.id);
    if (!job) return;
    waiting.delete(reply.id);
    if (reply.error || !reply.pdf || !reply.png) job.reject(new Error(`certificate rendering failed: ${reply.error}`));
    else job.resolve({ pdf: Buffer.from(reply.pdf), png: Buffer.from(reply.png) });
    if (waiting.size === 0) idleThenEnd(w);
  });
  const fail = (error: Error) => {
    for (const job of waiting.values()) job.reject(error);
    waiting.clear();
    if (worker === w) worker = null;
  };
  w.on("error", fail);
  w.on("exit", (code) => code !== 0 && fail(new Error(`certificate renderer exited with ${code}`)));
  return w;
}

/** Ends the thread when no work came for `idleMs`. */
function idleThenEnd(w: Worker): void {
  if (idle) clearTimeout(idle);
  idle = setTimeout(() => {
    idle = null;
    if (worker !== w || waiting.size > 0) return;
    worker = null;
    void w.terminate();
  }, idleMs);
  idle.unref();
}

/** Whether the renderer's thread is running (tests). */
export function rendererRunning(): boolean {
  return worker !== null;
}

export function renderCertificateFiles(facts: CertificateFacts): Promise<{ pdf: Buffer; png: Buffer }> {
  if (idle) clearTimeout(idle);
  idle = null;
  worker ??= start();
  const id = next++;
  const w = worker;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    w.postMessage({ id, facts });
  });
}
