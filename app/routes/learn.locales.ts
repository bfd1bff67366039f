import type { Route } from "./+types/learn.locales";
import { isSupportedLocale } from "#domain/locales";
import { translationsFor, translationsVersion } from "~/services/i18n.server";

/** Translations for the browser; immutable when the URL carries the current version. */
export async function loader({ params, url }: Route.LoaderArgs) {
  if (!isSupportedLocale(params.lng) || params.ns !== "common") {
    return Response.json({ status: 404, title: "Not found" }, { status: 404 });
  }
  const version = translationsVersion(params.lng);
  const cache = url.searchParams.get("v") === version ? "public, max-age=31536000, immutable" : "public, max-age=300";
  return Response.json(translationsFor(params.lng), { headers: { "Cache-Control": cache } });
}
