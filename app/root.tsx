import {
  data,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteError,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/root";
import { localeDirection, parseSupportedLocales, LOCALE_NAMES, portalDisplayName } from "#domain/locales";
import { PUBLIC_MENU, pageTitle } from "#domain/menu";
import { localeMiddleware, getInstance, getLocale, translationsVersion } from "./services/i18n.server";
import { requestStateMiddleware, state } from "./services/request.server";
import { isOfflineCopyRequest, offlineHeadersMiddleware } from "./services/offline.server";
import { SERVICE_WORKER_SCOPE, SERVICE_WORKER_URL } from "./common/offline";
import { popToast } from "./services/toast.server";
import { showBrowserAlert } from "./services/browser-support.server";
import { record } from "./services/analytics.server";
import { loadPublicSettings, publicLms } from "./services/user.server";
import { LanguageMenu, Shell } from "./components/shell";
import { Analytics } from "./components/analytics";
import { BlockingLoader } from "./components/blocking-loader";
import { ErrorPage, errorStatus, errorVariant } from "./components/error-page";
import { useNonce } from "./components/nonce";
import stylesHref from "./styles/app.scss?url";

export const middleware: Route.MiddlewareFunction[] = [
  requestStateMiddleware,
  localeMiddleware,
  // Issue 31 item 3: whose page and which language (the service worker reads both).
  offlineHeadersMiddleware,
];

/**
 * An error page keeps what its error said of caching and of when to come back (the 429 page's
 * Retry-After, issue 29); pages below the root set their own headers.
 */
export function headers({ errorHeaders }: Route.HeadersArgs) {
  const out = new Headers();
  for (const name of ["Retry-After", "Cache-Control"]) {
    const value = errorHeaders?.get(name);
    if (value) out.set(name, value);
  }
  return out;
}

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesHref },
  { rel: "icon", href: "/learn/favicon.svg", type: "image/svg+xml" },
];

/** The app's theme colour (the header, the installed app's title bar): --color-primary. */
const THEME_COLOR = "#1f5fbf";

/**
 * Issue 31 item 3: the service worker is registered after the page has loaded, by these lines in the
 * document — nothing in any route's first-load JavaScript. While the browser is offline, links and forms
 * are left to the browser (a whole page, which the service worker answers from a kept copy or with the
 * offline page) instead of the router's data requests, which cannot be answered offline. Not in
 * development (no built worker there).
 */
const registerServiceWorker = () =>
  `if("serviceWorker"in navigator){addEventListener("load",function(){navigator.serviceWorker.register(${JSON.stringify(SERVICE_WORKER_URL)},{scope:${JSON.stringify(SERVICE_WORKER_SCOPE)}}).catch(function(){})});var o=function(){return!navigator.onLine&&!!navigator.serviceWorker.controller};addEventListener("click",function(e){if(o()&&e.target.closest&&e.target.closest("a[href]"))e.stopPropagation()},true);addEventListener("submit",function(e){if(o())e.stopPropagation()},true)}`;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const locale = getLocale(context);
  const s = state(context);
  let shell = null;
  try {
    // The public certificate page fetches no user (spec 6): it looks the same to everyone.
    shell = isBarePath(url.pathname) ? null : await s.shell();
  } catch (err) {
    // A session the API no longer accepts reads as signed out here; private routes redirect to sign-in.
    if (!(err instanceof Response)) throw err;
  }
  // Issue 16 item 8: a page view of every document, recorded on the server (so without JavaScript too);
  // the browser's client records only its own navigations. Not awaited: the page never waits for it.
  // A page the service worker keeps for offline reading is nobody's view, and leaves the toasts be.
  const keeping = isOfflineCopyRequest(request);
  if (request.method === "GET" && !new URL(request.url).pathname.endsWith(".data") && !keeping)
    void record(request, context, [{ name: "page_view", page: url.pathname, props: {} }]);
  const [publicSettings, { toasts, setCookie }] = await Promise.all([
    shell ? null : loadPublicSettings(publicLms(context)),
    keeping ? { toasts: [], setCookie: null } : popToast(request, s.config),
  ]);
  // Issue 25 item 3: the built-in name in the page's language, as on the sign-in page; a tenant's own name as written.
  const portalName = portalDisplayName(
    shell?.settings["platform.common.portal_name"] ?? publicSettings?.portalName,
    getInstance(context).t("app.portalName"),
  );
  const supported = parseSupportedLocales(
    shell?.settings["platform.common.supported_locales"] ?? publicSettings?.supportedLocales,
  );
  return data(
    {
      locale,
      dir: localeDirection(locale),
      i18nVersion: translationsVersion(locale),
      portalName,
      languages: supported.map((code) => ({ code, name: LOCALE_NAMES[code] })),
      returnTo: url.pathname + url.search,
      toasts,
      user: shell
        ? {
            id: shell.user.id,
            timezone: shell.user.timezone,
            name: shell.user.name,
            email: shell.user.email,
            learnerOnly: shell.learnerOnly,
            impersonating: shell.impersonating,
            // Spec 1: the user menu's admin entry is the configured admin panel (ADMIN_URL).
            adminUrl: shell.learnerOnly ? null : s.config.adminUrl,
          }
        : null,
      menu: shell ? shell.menu : PUBLIC_MENU,
      // Issue 16 item 2: the header's unread badge (null for visitors and when nothing is unread).
      unread: shell && shell.unread.total > 0 && shell.unread.objectiveId ? shell.unread : null,
      configUnavailable: publicSettings?.unavailable === true,
      browserAlert: showBrowserAlert(request),
      feedbackVisible: shell ? shell.settings["platform.ui.feedback"]["learner.visible"] : false,
      // Spec 9: the data-lake session's length, for the analytics client.
      datalakeMinutes: shell ? shell.settings["lms.datalake.sessionDuration"] : null,
      env: { APP_ENV: s.config.appEnv },
    },
    { headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

/** The shell changes only when the session or language does; skip it on plain navigations. */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}) => {
  if (formMethod && formMethod !== "GET") return true;
  if (currentUrl.pathname !== nextUrl.pathname) return true;
  return defaultShouldRevalidate;
};

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<RootData>("root");
  const nonce = useNonce();
  const locale = root?.locale ?? "en-US";
  return (
    <html lang={locale} dir={root?.dir ?? localeDirection(locale)} data-i18n-version={root?.i18nVersion}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Issue 31 item 3: installable (the manifest is fetched with the cookies, so it speaks the learner's
            language). Written by the server only: hydration skips what it does not render in the head. */}
        {import.meta.env.SSR ? (
          <>
            <meta name="theme-color" content={THEME_COLOR} />
            <link rel="manifest" href="/learn/manifest.webmanifest" crossOrigin="use-credentials" />
            <link rel="apple-touch-icon" href="/learn/icons/icon-192.png" />
          </>
        ) : null}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
        {/* Issue 31 item 3: the service worker, registered after load by lines the server writes (hydration skips
            them): nothing in any route's JavaScript. Not in development (no built worker there). */}
        {import.meta.env.SSR && !import.meta.env.DEV ? (
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: registerServiceWorker() }} />
        ) : null}
      </body>
    </html>
  );
}

interface TitleHandle {
  title?: (data: unknown, t: (key: string) => string) => string | null;
}

export default function App() {
  const root = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const matches = useMatches();
  const names = matches.map((m) => (m.handle as TitleHandle | undefined)?.title?.(m.loaderData, t) ?? null).reverse();
  // A bare page (no menu): the public certificate; "framed", without even the portal's name: what a
  // proctoring service frames (issue 26, spec 2.1 `inProctoringIframe`).
  const bares = matches.map((m) => {
    const b = (m.handle as { bare?: boolean | ((data: unknown) => boolean | "framed") } | undefined)?.bare;
    return typeof b === "function" ? b(m.loaderData) : Boolean(b);
  });
  const bare = bares.some(Boolean);
  const framed = bares.includes("framed");
  return (
    <>
      <title>{pageTitle(names, root.portalName)}</title>
      <Analytics appEnv={root.env.APP_ENV} datalakeMinutes={root.datalakeMinutes} />
      {bare ? (
        <BarePage root={root} framed={framed}>
          <Outlet />
        </BarePage>
      ) : (
        <Shell root={root}>
          <BlockingLoader />
          <Outlet />
        </Shell>
      )}
    </>
  );
}

/**
 * The public certificate's page (spec 2.1 'no menu'): the portal's name, the language menu (issue 25
 * item 3: a visitor reads it in their language) and the content; framed (a proctored sitting inside its
 * service's frame, issue 26): the content alone.
 */
function BarePage({ root, framed, children }: { root: RootData; framed: boolean; children: React.ReactNode }) {
  const { t } = useTranslation();
  if (framed)
    return (
      <main id="main" className="main bare__main bare__main--framed" tabIndex={-1}>
        {children}
      </main>
    );
  return (
    <div className="bare">
      <a className="skip-link" href="#main">
        {t("app.skipToContent")}
      </a>
      <header className="bare__header">
        <p className="header__brand">{root.portalName}</p>
        <div className="header__actions">
          <LanguageMenu root={root} />
        </div>
      </header>
      <main id="main" className="main bare__main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

/** Spec 2.1: the public certificate (/learn/certificate/{number}) — no menu, no user fetch. */
function isBarePath(pathname: string): boolean {
  return /^\/learn\/certificate\/[^/]+\/?$/.test(pathname);
}

export function ErrorBoundary() {
  const error = useRouteError();
  const root = useRouteLoaderData<RootData>("root");
  const { t } = useTranslation();
  const status = errorStatus(error);
  // WCAG 2.4.2: the error page has a title of its own, like every page.
  const title = <title>{pageTitle([t(`errors.${errorVariant(status, error)}.title`)], root?.portalName ?? "")}</title>;
  const page = (
    <ErrorPage
      status={status}
      error={error}
      learnerOnly={root?.user?.learnerOnly ?? true}
      dev={root?.env.APP_ENV === "dev"}
    />
  );
  if (!root)
    return (
      <main id="main">
        {title}
        {page}
      </main>
    );
  return (
    <Shell root={root}>
      {title}
      {page}
    </Shell>
  );
}
