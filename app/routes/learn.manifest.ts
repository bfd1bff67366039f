import type { Route } from "./+types/learn.manifest";
import { localeDirection } from "#domain/locales";
import { getInstance, getLocale } from "~/services/i18n.server";
import { loadPublicSettings, publicLms } from "~/services/user.server";

/**
 * /learn/manifest.webmanifest (issue 31 item 3): the app can be installed — its name (the portal's),
 * in the learner's language and direction, standalone from /learn, the app's colours and icons
 * (drawn at build time from public/icons/*.svg).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const locale = getLocale(context);
  const { t } = getInstance(context);
  const settings = await loadPublicSettings(publicLms(context));
  const name = settings.portalName || "Learning Portal";
  const manifest = {
    id: "/learn",
    name,
    short_name: name.length <= 12 ? name : t("offline.shortName"),
    description: t("offline.appDescription"),
    lang: locale,
    dir: localeDirection(locale),
    start_url: "/learn",
    scope: "/learn",
    display: "standalone",
    orientation: "any",
    background_color: "#f5f6f8",
    theme_color: "#1f5fbf",
    categories: ["education"],
    icons: [
      { src: "/learn/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/learn/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/learn/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
      { src: "/learn/icons/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: {
      "Content-Type": "application/manifest+json; charset=utf-8",
      // Per learner language (the cookie): kept briefly, privately.
      "Cache-Control": "private, max-age=3600",
      Vary: "Cookie, Accept-Language",
    },
  });
}
