/**
 * Renders certificate files in a thread of their own (`render-worker.mjs`): one worker per process,
 * started on first use and not keeping the process alive; requests queue in it one after another.
 */
import { Worker } from "node:worker_threads";
import type { CertificateFacts } from "./certificate-render";

type Reply = { id: number; pdf?: Uint8Array; png?: Uint8Array; error?: string };

let worker: Worker | null = null;
let next = 1;
const waiting = new Map<number, { resolve: (r: { pdf: Buffer; png: Buffer }) => void; reject: (e: Error) => void }>();

function start(): Worker {
  const w = new Worker(new URL("./render-worker.mjs", import.meta.url));
  w.unref();
  w.on("message", (reply: Reply) => {
    const job = waiting.get(reply.id);
    if (!job) return;
    waiting.delete(reply.id);
    if (reply.error || !reply.pdf || !reply.png) job.reject(new Error(`certificate rendering failed: ${reply.error}`));
    else job.resolve({ pdf: Buffer.from(reply.pdf), png: Buffer.from(reply.png) });
  });
  const fail = (error: Error) => {
    for (const job of waiting.values()) job.reject(error);
    waiting.clear();
    worker = null;
  };
  w.on("error", fail);
  w.on("exit", (code) => code !== 0 && fail(new Error(`certificate renderer exited with ${code}`)));
  return w;
}

export function renderCertificateFiles(facts: CertificateFacts): Promise<{ pdf: Buffer; png: Buffer }> {
  worker ??= start();
  const id = next++;
  const w = worker;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    w.postMessage({ id, facts });
  });
}
