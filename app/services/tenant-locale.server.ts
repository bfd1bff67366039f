import type { RouterContextProvider } from "react-router";
import { endpoints } from "#domain/contract/endpoints";
import { DEFAULT_LOCALE } from "#domain/locales";
import { appConfig, appLoadContext, lmsTransport, type AppConfig } from "./config.server";
import type { ChangeFeed } from "#domain/contract/changes";
import { createLmsClient } from "./lms.server";

/** How long a process trusts the tenant's default language before asking the API again. */
const TENANT_LOCALE_TTL_MS = 30_000;

const cache = new WeakMap<AppConfig, { expires: number; value: Promise<string | null> }>();
/** Feeds already followed: a change of the tenant's settings on any node (decision 019) drops the value. */
const followed = new WeakSet<ChangeFeed>();

/**
 * Spec 9: the tenant's default language (`platform.common.locale`) comes between the learner's own
 * choice and Accept-Language. Read from the public settings (the locale is decided before the shell
 * loads, and visitors have no shell), one call per process every 30 s or after a change notice of the
 * tenant's data (decision 019); an API that cannot answer means
 * no tenant default, never a failed page.
 */
export function tenantDefaultLocale(context: Readonly<RouterContextProvider>): Promise<string | null> {
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
    (s) => s.defaultLocale || null,
    () => null,
  );
  cache.set(config, { expires: Date.now() + TENANT_LOCALE_TTL_MS, value });
  return value;
}
