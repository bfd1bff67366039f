/**
 * The certificate renderer's thread (decision 020): fonts of several megabytes are parsed and PDFs
 * and PNGs drawn here, so neither the database thread (which also runs the API) nor the rendering
 * thread of the pages waits for them. Messages: { id, facts } → { id, pdf, png } or { id, error }.
 */
import { parentPort } from "node:worker_threads";

let renderer = null;

async function load() {
  try {
    return await import("./certificate-render.ts");
  } catch (error) {
    // Started without a TypeScript loader: register tsx for this thread (as pglite-worker.mjs does).
    if (error?.code !== "ERR_UNKNOWN_FILE_EXTENSION" && error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
    const { register } = await import("tsx/esm/api");
    register();
    return import("./certificate-render.ts?tsx");
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
