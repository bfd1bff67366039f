import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import i18next from "i18next";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { getInitialNamespaces } from "remix-i18next/client";

async function hydrate() {
  const lng = document.documentElement.lang || "en-US";
  const version = document.documentElement.dataset.i18nVersion ?? "";
  const ns = getInitialNamespaces();
  const namespaces = ns.length ? ns : ["common"];
  const bundles = await Promise.all(
    namespaces.map(async (n) => [n, await (await fetch(`/learn/locales/${lng}/${n}?v=${version}`)).json()] as const),
  );
  await i18next.use(initReactI18next).init({
    lng,
    fallbackLng: false,
    ns: namespaces,
    defaultNS: "common",
    resources: { [lng]: Object.fromEntries(bundles) },
    interpolation: { escapeValue: false },
  });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
