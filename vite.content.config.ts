import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

/**
 * The content origin's own script (issue 29 item 1, decision 040): the SCORM launcher with the run-time
 * library, built apart from the app (it never runs on the app's origin) into build/content/, which the
 * content origin serves under /runtime/. `npm run build` builds it; the dev server builds it at start.
 */
export default defineConfig({
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "#domain": fileURLToPath(new URL("./domain", import.meta.url)),
    },
  },
  publicDir: false,
  build: {
    outDir: "build/content",
    emptyOutDir: true,
    sourcemap: false,
    minify: true,
    target: "es2022",
    lib: {
      entry: fileURLToPath(new URL("./app/components/scorm/launcher.ts", import.meta.url)),
      formats: ["es"],
      fileName: () => "scorm-launcher.js",
    },
  },
});
