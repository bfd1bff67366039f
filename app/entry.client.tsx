import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { createLiteI18n, I18nProvider } from "./common/i18n";

/** Translations for the page's language arrive from a cached resource route before hydration. */
async function hydrate() {
  const lng = document.documentElement.lang || "en-US";
  const version = document.documentElement.dataset.i18nVersion ?? "";
  const resources = (await (await fetch(`/learn/locales/${lng}/common?v=${version}`)).json()) as Record<
    string,
    unknown
  >;
  const i18n = createLiteI18n(lng, resources);
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nProvider i18n={i18n}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nProvider>,
    );
  });
}

void hydrate();
