import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

export default tseslint.config(
  {
    ignores: [
      "bench/scratch/**",
      "bench/.data-big/**",
      "build/**",
      "data/**",
      ".react-router/**",
      "node_modules/**",
      "test-results/**",
      "playwright-report/**",
    ],
  },
  ...tseslint.configs.recommended,
  { files: ["app/**/*.{ts,tsx}"], ...reactHooks.configs.flat.recommended },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "react-i18next",
              message:
                "Import useTranslation from ~/i18n/lite (decision 011): the server and the browser translate with it.",
            },
            { name: "i18next", message: "The app translates with ~/i18n/lite (decision 011)." },
          ],
          patterns: [
            {
              group: ["**/api/*", "../api/*", "../../api/*"],
              message: "app/ reaches the LMS API only through lms.server.ts",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["api/**", "tests/**", "server.ts", "bench/**", "scripts/**", "domain/**"],
    rules: { "no-restricted-imports": "off" },
  },
);
