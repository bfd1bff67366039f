import type { Config } from "@react-router/dev/config";

// No `basename`: the learner routes carry the "learn" prefix themselves (app/routes.ts) so that
// /oidc/*, /config-ui/config.json and unknown paths outside /learn are ordinary routes.
// See docs/decisions/002-routing-under-learn.md. Middleware is always on in React Router 8
// (decision 013).
export default {
  ssr: true,
} satisfies Config;
