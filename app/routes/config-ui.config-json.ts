import type { Route } from "./+types/config-ui.config-json";
import { appConfig } from "~/services/config.server";
import { loadPublicSettings, publicLms } from "~/services/user.server";
import { parseSupportedLocales } from "#domain/locales";

/** GET /config-ui/config.json (spec 7.1): public runtime configuration; no secrets. */
export async function loader({ context }: Route.LoaderArgs) {
  const settings = await loadPublicSettings(publicLms(context));
  const environment = appConfig(context).appEnv;
  return Response.json(
    {
      environment,
      portalName: settings.portalName,
      defaultLocale: settings.defaultLocale,
      supportedLocales: parseSupportedLocales(settings.supportedLocales),
      basePath: "/learn",
      analyticsEnabled: environment === "prod" || environment === "test",
      features: { catalog: settings.features.catalog },
      auth: { loginUrl: "/oidc/login", logoutUrl: "/oidc/logout" },
    },
    // Defaults because the API did not answer: said by the status, and not kept by any cache.
    settings.unavailable
      ? { status: 503, headers: { "Cache-Control": "no-store", "Retry-After": "5" } }
      : { headers: { "Cache-Control": "public, max-age=60" } },
  );
}
