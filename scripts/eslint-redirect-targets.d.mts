import type { Rule } from "eslint";

/** The local ESLint plugin of `eslint-redirect-targets.mjs`: its one rule, `redirect-targets`. */
declare const plugin: { rules: { "redirect-targets": Rule.RuleModule } };
export default plugin;
