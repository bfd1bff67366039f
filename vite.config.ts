import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";
import { fileURLToPath } from "node:url";

/** In the browser bundle "react-i18next" is the small stand-in of app/i18n/lite.tsx (decision 009). */
function clientI18nLite(): Plugin {
  const lite = fileURLToPath(new URL("./app/i18n/lite.tsx", import.meta.url));
  return {
    name: "client-i18n-lite",
    enforce: "pre",
    resolveId(source, _importer, options) {
      if (source === "react-i18next" && !options?.ssr) return lite;
      return null;
    },
  };
}

export default defineConfig({
  base: "/learn/",
  plugins: [clientI18nLite(), reactRouter()],
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "#domain": fileURLToPath(new URL("./domain", import.meta.url)),
    },
  },
  build: { sourcemap: false },
});
