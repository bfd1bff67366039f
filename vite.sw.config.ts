/**
 * Issue 31 item 3 (decision 044): the service worker, built on its own after the app — one classic
 * script (a service worker registered without `type: "module"`), Workbox bundled in, its development
 * logging compiled out — into build/client/sw.js, which the server sends at /learn/sw.js.
 */
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

export default defineConfig({
  publicDir: false,
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "#domain": fileURLToPath(new URL("./domain", import.meta.url)),
    },
  },
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  build: {
    outDir: "build/client",
    emptyOutDir: false,
    copyPublicDir: false,
    sourcemap: false,
    lib: {
      entry: fileURLToPath(new URL("./app/sw/service-worker.ts", import.meta.url)),
      formats: ["iife"],
      name: "learnServiceWorker",
      fileName: () => "sw.js",
    },
  },
});
