import type { Config } from "@react-router/dev/config";

// No `basename`: the learner routes carry the "learn" prefix themselves (app/routes.ts) so that
// /oidc/*, /config-ui/config.json and unknown paths outside /learn are ordinary routes.
// See docs/decisions/002-routing-under-learn.md.
export default {
  ssr: true,
  future: { v8_middleware: true },
} satisfies Config;
