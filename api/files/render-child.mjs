/**
 * The certificate renderer's process (decisions 020 and 038, addendum 11): fonts of several megabytes
 * are parsed and PDFs and PNGs drawn here, so neither the node's threads wait for them nor does their
 * memory stay with the node. Messages: { id, facts } → { id, pdf, png } or { id, error }. It ends when
 * its parent closes the channel (render-process.ts, after 5 s without work) or goes away.
 */
let renderer = null;

/**
 * The renderer module the parent names (render-process.ts): compiled JavaScript in the server build,
 * the TypeScript source under tsx and vitest.
 */
async function load() {
  const module = process.env.CERTIFICATE_RENDER_MODULE ?? new URL("./certificate-render.ts", import.meta.url).href;
  try {
    return await import(module);
  } catch (error) {
    // TypeScript without a loader in this process (vitest, plain node): register tsx (as pglite-worker.mjs does).
    if (error?.code !== "ERR_UNKNOWN_FILE_EXTENSION" && error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
    const { register } = await import("tsx/esm/api");
    register();
    return import(`${module}?tsx`);
  }
}

process.on("message", async ({ id, facts }) => {
  try {
    renderer ??= await load();
    const pdf = await renderer.renderCertificatePdf(facts);
    const png = renderer.renderCertificatePng(facts);
    process.send({ id, pdf: new Uint8Array(pdf), png: new Uint8Array(png) });
  } catch (error) {
    process.send({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
process.on("disconnect", () => process.exit(0));
