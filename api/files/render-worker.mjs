/**
 * The certificate renderer's thread (decision 020): fonts of several megabytes are parsed and PDFs
 * and PNGs drawn here, so neither the database thread (which also runs the API) nor the rendering
 * thread of the pages waits for them. Messages: { id, facts } → { id, pdf, png } or { id, error }.
 */
import { parentPort, workerData } from "node:worker_threads";

let renderer = null;

/**
 * The renderer module the starter names (render-thread.ts): compiled JavaScript in the server build,
 * the TypeScript source under tsx and vitest.
 */
async function load() {
  const module = workerData?.module ?? new URL("./certificate-render.ts", import.meta.url).href;
  try {
    return await import(module);
  } catch (error) {
    // TypeScript without a loader in this thread (vitest, plain node): register tsx (as pglite-worker.mjs does).
    if (error?.code !== "ERR_UNKNOWN_FILE_EXTENSION" && error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
    const { register } = await import("tsx/esm/api");
    register();
    return import(`${module}?tsx`);
  }
}

parentPort.on("message", async ({ id, facts }) => {
  try {
    renderer ??= await load();
    const pdf = await renderer.renderCertificatePdf(facts);
    const png = renderer.renderCertificatePng(facts);
    parentPort.postMessage({ id, pdf: new Uint8Array(pdf), png: new Uint8Array(png) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
