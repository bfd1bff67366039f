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
    { headers: { "Cache-Control": "public, max-age=60" } },
  );
}
