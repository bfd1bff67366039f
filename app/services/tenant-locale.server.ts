import type { RouterContextProvider } from "react-router";
import { endpoints } from "#domain/contract/endpoints";
import { DEFAULT_LOCALE, parseSupportedLocales, SUPPORTED_LOCALES, type Locale } from "#domain/locales";
import { appConfig, appLoadContext, lmsTransport, type AppConfig } from "./config.server";
import type { ChangeFeed } from "#domain/contract/changes";
import { createLmsClient } from "./lms.server";

/** How long a process trusts the tenant's default language before asking the API again. */
const TENANT_LOCALE_TTL_MS = 30_000;

/** The tenant's languages: its default and the ones it offers (spec 3 'Settings read'). */
export interface TenantLocales {
  defaultLocale: string | null;
  supported: Locale[];
}

const cache = new WeakMap<AppConfig, { expires: number; value: Promise<TenantLocales> }>();
/** Feeds already followed: a change of the tenant's settings on any node (decision 019) drops the value. */
const followed = new WeakSet<ChangeFeed>();

/**
 * Spec 9, issue 25 item 3: the tenant's languages — the browser's language is matched among the ones it
 * offers (`platform.common.supported_locales`), and its default (`platform.common.locale`) decides when
 * the browser's matches none. Read from the public settings (the locale is decided before the shell
 * loads, and visitors have no shell), one call per process every 30 s or after a change notice of the
 * tenant's data (decision 019); an API that cannot answer means every locale and no tenant default,
 * never a failed page.
 */
export function tenantLocales(context: Readonly<RouterContextProvider>): Promise<TenantLocales> {
  const config = appConfig(context);
  const feed = context.get(appLoadContext).changes;
  if (feed && !followed.has(feed)) {
    followed.add(feed);
    feed.subscribe((change) => {
      if (change.kind === "all") cache.delete(config);
    });
  }
  const hit = cache.get(config);
  if (hit && hit.expires > Date.now()) return hit.value;
  const lms = createLmsClient({
    accessToken: null,
    locale: DEFAULT_LOCALE,
    transport: lmsTransport(context),
    baseUrl: config.lmsApiUrl,
  });
  const value = lms.get(endpoints.publicSettings).then(
    (s): TenantLocales => ({
      defaultLocale: s.defaultLocale || null,
      supported: parseSupportedLocales(s.supportedLocales),
    }),
    (): TenantLocales => ({ defaultLocale: null, supported: [...SUPPORTED_LOCALES] }),
  );
  cache.set(config, { expires: Date.now() + TENANT_LOCALE_TTL_MS, value });
  return value;
}
