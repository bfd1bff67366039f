import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import redirectTargets from "./scripts/eslint-redirect-targets.mjs";

/** Fields that hold an enumeration of domain/vocabulary.ts. */
const ENUM_FIELDS = "/^(state|kind|type|contentType|presentationMode|displayMode|result|activityState)$/";

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
      // ADL's conformance packages, pinned as published (tests/fixtures/scorm-cts/README.md).
      "tests/fixtures/scorm-cts/**",
    ],
  },
  ...tseslint.configs.recommended,
  // CommonJS configuration files (dependency-cruiser's, the floors table) load each other with require().
  { files: ["**/*.cjs"], rules: { "@typescript-eslint/no-require-imports": "off" } },
  { files: ["app/**/*.{ts,tsx}"], ...reactHooks.configs.flat.recommended },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // One vocabulary (domain/vocabulary.ts): states, kinds and types are compared by name.
      "no-restricted-syntax": [
        "error",
        {
          selector: `BinaryExpression[operator=/^[!=]==?$/][left.property.name=${ENUM_FIELDS}][right.type="Literal"][right.raw=/^[0-9]+$/]`,
          message: "Compare with a name from domain/vocabulary.ts (e.g. ActivityKind.lti), not a bare number.",
        },
        {
          selector: `BinaryExpression[operator=/^[!=]==?$/][right.property.name=${ENUM_FIELDS}][left.type="Literal"][left.raw=/^[0-9]+$/]`,
          message: "Compare with a name from domain/vocabulary.ts (e.g. ActivityKind.lti), not a bare number.",
        },
        {
          selector: `SwitchStatement[discriminant.property.name=${ENUM_FIELDS}] > SwitchCase > Literal.test[raw=/^[0-9]+$/]`,
          message: "Switch over names from domain/vocabulary.ts, not bare numbers.",
        },
      ],
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "react-i18next",
              message:
                "Import useTranslation from ~/common/i18n (decision 011): the server and the browser translate with it.",
            },
            { name: "i18next", message: "The app translates with ~/common/i18n (decision 011)." },
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
    files: [
      "api/**",
      "identity/**",
      "demo/**",
      "tests/**",
      "server/**",
      "ops/**",
      "bench/**",
      "scripts/**",
      "domain/**",
    ],
    rules: { "no-restricted-imports": "off" },
  },
  {
    // Issue 29 item 4: one redirect rule (domain/redirect.ts) for every target built from input.
    files: ["app/**/*.{ts,tsx}", "api/**/*.ts", "identity/**/*.ts", "demo/**/*.ts", "server/**/*.ts", "ops/**/*.ts"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    plugins: { local: redirectTargets },
    rules: {
      // Functions of one file that others redirect to: each one's answers are checked where it is defined.
      "local/redirect-targets": ["error", { pathFunctions: ["viewPath", "loginUrl", "safeTarget"] }],
    },
  },
  {
    // Handlers share code through queries/, commands/ and mappers/, never through another route module.
    files: ["api/routes/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["./*"],
              message:
                "A route module does not import another; move the shared code to api/queries, api/commands or api/mappers.",
            },
          ],
        },
      ],
    },
  },
);
