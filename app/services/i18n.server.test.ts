import { describe, expect, it } from "vitest";
import { testAppConfig } from "../../tests/fixtures/app-config";
import { RouterContextProvider } from "react-router";
import { appLoadContext, type Transport } from "./config.server";
import type { ChangeFeed, DataChange } from "#domain/contract/changes";
import { getLocale, localeCookie, localeMiddleware } from "./i18n.server";

/** A request through the locale middleware against an API whose public settings name `defaultLocale`. */
function setup(defaultLocale: string | null, supportedLocales = "") {
  const calls: string[] = [];
  const transport: Transport = (req) => {
    calls.push(new URL(req.url).pathname);
    if (defaultLocale === null) return new Response("down", { status: 503 });
    return Response.json({ portalName: "P", supportedLocales, defaultLocale, features: { catalog: true } });
  };
  const config = testAppConfig();
  const localeOf = async (headers: Record<string, string>) => {
    const context = new RouterContextProvider();
    context.set(appLoadContext, { config, lmsTransport: transport, sessions: null as never });
    const request = new Request("http://localhost:3000/learn", { headers });
    await localeMiddleware(
      { request, context, params: {}, url: new URL(request.url), pattern: "/" } as never,
      async () => new Response(),
    );
    return getLocale(context);
  };
  return { calls, localeOf };
}

describe("spec 9, issue 25: the lng cookie, then Accept-Language among the tenant's locales, then its default", () => {
  it("the cookie wins, then the browser's language, then platform.common.locale", async () => {
    const { localeOf, calls } = setup("de");
    expect(await localeOf({ Cookie: await localeCookie.serialize("fr"), "Accept-Language": "es-ES" })).toBe("fr");
    expect(calls).toEqual([]); // the cookie decides: no call
    expect(await localeOf({ "Accept-Language": "es-ES" })).toBe("es");
    expect(await localeOf({ "Accept-Language": "ar" })).toBe("ar");
    expect(await localeOf({ "Accept-Language": "tlh" })).toBe("de");
    expect(await localeOf({})).toBe("de");
    expect(calls).toHaveLength(1); // one call per process and TTL
  });

  it("matches the browser's language among the tenant's supported locales only", async () => {
    const { localeOf } = setup("de", "de,fr");
    expect(await localeOf({ "Accept-Language": "es-ES" })).toBe("de");
    expect(await localeOf({ "Accept-Language": "fr-CA" })).toBe("fr");
  });

  it("an API that cannot answer leaves Accept-Language to decide (no error)", async () => {
    const { localeOf } = setup(null);
    expect(await localeOf({ "Accept-Language": "es-ES" })).toBe("es");
    expect(await localeOf({})).toBe("en-US");
  });

  it("a change notice of the tenant's data (decision 019) is read at once, not after 30 s", async () => {
    let defaultLocale = "de";
    const listeners: ((c: DataChange) => void)[] = [];
    const changes: ChangeFeed = { subscribe: (l) => (listeners.push(l), () => {}) };
    const transport: Transport = () =>
      Response.json({ portalName: "P", supportedLocales: "", defaultLocale, features: { catalog: true } });
    const config = testAppConfig();
    const localeOf = async () => {
      const context = new RouterContextProvider();
      context.set(appLoadContext, { config, lmsTransport: transport, sessions: null as never, changes });
      const request = new Request("http://localhost:3000/learn");
      await localeMiddleware(
        { request, context, params: {}, url: new URL(request.url), pattern: "/" } as never,
        async () => new Response(),
      );
      return getLocale(context);
    };
    expect(await localeOf()).toBe("de");
    defaultLocale = "fr";
    expect(await localeOf()).toBe("de");
    for (const l of listeners) l({ kind: "all" });
    expect(await localeOf()).toBe("fr");
  });
});
