import { Suspense, useEffect, useRef, useState } from "react";
import { Form, Link, NavLink, useLocation, useMatches } from "react-router";
import { INTENT } from "~/common/forms/intents";
import { useTranslation } from "~/common/i18n";
import type { MenuEntry } from "#domain/menu";
import { Toasts } from "./toasts";
import { lazyWidget } from "./lazy-widget";

const FeedbackDialog = lazyWidget(() => import("./feedback-dialog"));

export interface ShellRoot {
  portalName: string;
  locale: string;
  languages: { code: string; name: string }[];
  returnTo: string;
  toasts: {
    type: "success" | "info" | "critical";
    key: string;
    values?: Record<string, string | number>;
    text?: string;
  }[];
  user: { name: string; email: string; learnerOnly: boolean; impersonating: boolean; adminUrl?: string | null } | null;
  menu: MenuEntry[];
  /** Spec 7.1 / 8: the configuration (public settings) could not be loaded; defaults are shown. */
  configUnavailable?: boolean;
  /** Spec 2.11: the product-feedback widget (`platform.ui.feedback.learner.visible`). */
  feedbackVisible?: boolean;
  /** Spec 2.11: this browser is not supported and the alert was not dismissed. */
  browserAlert?: boolean;
  /** Issue 16 item 2: unread chat messages, and the course and channel of the newest. */
  unread?: { total: number; objectiveId: string | null; channel: string | null } | null;
}

const LOGOUT_FLAG = "learn.logout";

function MenuList({ entries }: { entries: MenuEntry[] }) {
  const { t } = useTranslation();
  return (
    <ul className="menu-list">
      {entries.map((e) => (
        <li key={e.key}>
          {e.external ? (
            <a href={e.href}>{t(`menu.${e.key}`)}</a>
          ) : (
            <NavLink to={e.href} end={e.href === "/learn"} prefetch="intent">
              {e.key === "catalog" && e.href.includes("open-catalog") ? t("menu.openCatalog") : t(`menu.${e.key}`)}
            </NavLink>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Spec 4.15: signing out in one tab signs out the others (storage flag). */
function useCrossTabLogout(signedIn: boolean) {
  useEffect(() => {
    if (!signedIn) return;
    const onStorage = (e: StorageEvent) => {
      if (e.key !== LOGOUT_FLAG || !e.newValue) return;
      // The other tab ends here at the logout endpoint (a same-origin POST), like its own button would.
      const form = document.createElement("form");
      form.method = "post";
      form.action = "/oidc/logout";
      form.hidden = true;
      document.body.append(form);
      form.submit();
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, [signedIn]);
}

function markLogout() {
  try {
    localStorage.setItem(LOGOUT_FLAG, String(Date.now()));
  } catch {
    // storage may be unavailable (private mode, locked-down browsers): the other tabs find out on their next request
  }
}

export function LanguageMenu({ root }: { root: Pick<ShellRoot, "languages" | "locale" | "returnTo"> }) {
  const { t } = useTranslation();
  const current = root.languages.find((l) => l.code === root.locale)?.name ?? root.locale;
  return (
    <details className="dropdown language-menu">
      <summary aria-label={t("language.current", { language: current })}>
        <span aria-hidden="true" className="icon icon--globe" />
        <span className="dropdown__label">{current}</span>
      </summary>
      <Form method="post" action="/learn/language" className="dropdown__panel language-menu__panel" reloadDocument>
        <input type="hidden" name="returnTo" value={root.returnTo} />
        <fieldset>
          <legend>{t("language.choose")}</legend>
          <ul>
            {root.languages.map((l) => (
              <li key={l.code}>
                <button
                  type="submit"
                  name="lng"
                  value={l.code}
                  lang={l.code}
                  aria-current={l.code === root.locale ? "true" : undefined}
                >
                  {l.name}
                </button>
              </li>
            ))}
          </ul>
        </fieldset>
      </Form>
    </details>
  );
}

function UserMenu({ root }: { root: ShellRoot }) {
  const { t } = useTranslation();
  const location = useLocation();
  if (!root.user) {
    const back = encodeURIComponent(location.pathname + location.search);
    return (
      <div className="user-actions">
        <a className="button button--primary" href={`/oidc/login?redirectUrl=${back}`}>
          {t("userMenu.signIn")}
        </a>
      </div>
    );
  }
  return (
    <details className="dropdown user-menu">
      <summary>
        <span className="avatar" aria-hidden="true">
          {root.user.name.slice(0, 1).toUpperCase()}
        </span>
        <span className="dropdown__label">{root.user.name}</span>
      </summary>
      <div className="dropdown__panel">
        <p className="user-menu__who">{t("userMenu.signedInAs", { name: root.user.email })}</p>
        <ul>
          <li>
            <a href="/learn/profile">{t("userMenu.profile")}</a>
          </li>
          {!root.user.learnerOnly && root.user.adminUrl ? (
            <li>
              <a href={root.user.adminUrl}>{t("userMenu.adminPanel")}</a>
            </li>
          ) : null}
          <li>
            <form method="post" action="/oidc/logout" onSubmit={markLogout}>
              <button type="submit" className="link-button">
                {t("userMenu.signOut")}
              </button>
            </form>
          </li>
        </ul>
      </div>
    </details>
  );
}

interface Crumb {
  label: string;
  href?: string;
  slug?: string;
}
interface CrumbHandle {
  breadcrumb?: (data: unknown, t: (key: string) => string) => Crumb | Crumb[] | null;
}

function Breadcrumbs() {
  const { t } = useTranslation();
  const matches = useMatches();
  const crumbs = matches.flatMap((m) => (m.handle as CrumbHandle | undefined)?.breadcrumb?.(m.loaderData, t) ?? []);
  if (crumbs.length === 0) return null;
  return (
    <nav aria-label={t("breadcrumbs.label")} className="breadcrumbs">
      <ol>
        {crumbs.map((c, i) => (
          <li key={`${c.slug ?? c.label}-${i}`} data-slug={c.slug}>
            {c.href && i < crumbs.length - 1 ? (
              <Link to={c.href}>{c.label}</Link>
            ) : (
              <span aria-current={i === crumbs.length - 1 ? "page" : undefined}>{c.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

const MENUS = "details.hamburger[open], details.dropdown[open]";

/**
 * The phone menu and the dropdowns (WAI-ARIA APG disclosure menus): Escape closes the open one and
 * returns focus to its toggle; a menu closes when focus moves outside it (Tab past its last link).
 */
function useMenusCloseByKeyboard() {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.isComposing) return;
      const open = [...document.querySelectorAll<HTMLDetailsElement>(MENUS)];
      if (open.length === 0) return;
      const active = document.activeElement;
      const current = open.find((d) => active && d.contains(active)) ?? open[open.length - 1]!;
      for (const d of open) d.removeAttribute("open");
      current.querySelector("summary")?.focus();
    };
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof Node)) return;
      for (const d of document.querySelectorAll<HTMLDetailsElement>(MENUS))
        if (!d.contains(target)) d.removeAttribute("open");
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("focusin", onFocusIn);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("focusin", onFocusIn);
    };
  }, []);
}

/** Spec 1/2.2: header, hamburger menu, sidebar, user and language menus. Works without JavaScript. */
export function Shell({ root, children }: { root: ShellRoot; children: React.ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const mobileMenu = useRef<HTMLDetailsElement>(null);
  useCrossTabLogout(Boolean(root.user));
  // Close the open dropdowns and mobile menu after a client navigation (not on hydration: a menu
  // opened before the scripts arrived stays open).
  const shownPath = useRef(location.pathname);
  useEffect(() => {
    if (shownPath.current === location.pathname) return;
    shownPath.current = location.pathname;
    mobileMenu.current?.removeAttribute("open");
    document.querySelectorAll<HTMLDetailsElement>("details.dropdown[open]").forEach((d) => d.removeAttribute("open"));
  }, [location.pathname]);
  useMenusCloseByKeyboard();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t("app.skipToContent")}
      </a>
      {root.user?.impersonating ? (
        <div className="impersonation-banner" role="status">
          {t("impersonation.banner", { name: root.user.name })}
          <form method="post" action="/oidc/logout" onSubmit={markLogout}>
            <button type="submit" className="link-button">
              {t("impersonation.signOut")}
            </button>
          </form>
        </div>
      ) : null}
      {root.browserAlert ? <BrowserAlert returnTo={root.returnTo} /> : null}
      <header className="header">
        <details className="hamburger" ref={mobileMenu}>
          <summary aria-label={t("menu.openMenu")}>
            <span className="icon icon--menu" aria-hidden="true" />
          </summary>
          <nav aria-label={t("menu.mainNavigation")} className="hamburger__panel">
            <MenuList entries={root.menu} />
          </nav>
        </details>
        <Link to={root.user ? "/learn" : "/learn/open-catalog"} className="header__brand">
          {root.portalName}
        </Link>
        <div className="header__actions">
          {root.unread ? (
            // Issue 16 item 2: unread chat messages over the learner's courses; leads to the newest.
            <a
              className="header-unread"
              href={`/learn/courses/${root.unread.objectiveId}/view/notifications?channel=${root.unread.channel}`}
              aria-label={t("chat.unreadTotal", { count: root.unread.total })}
            >
              <span aria-hidden="true">{root.unread.total}</span>
            </a>
          ) : null}
          {root.user && root.feedbackVisible ? <FeedbackTrigger returnTo={root.returnTo} /> : null}
          <LanguageMenu root={root} />
          <UserMenu root={root} />
        </div>
      </header>
      <div className="shell__body">
        <nav aria-label={t("menu.mainNavigation")} className="sidebar">
          <MenuList entries={root.menu} />
        </nav>
        <main id="main" className="main" tabIndex={-1}>
          {root.configUnavailable ? (
            <p className="notice notice--critical" role="alert">
              {t("messages.configNotLoaded")}
            </p>
          ) : null}
          <Breadcrumbs />
          {!root.user ? <SignUpOffer /> : null}
          {children}
        </main>
      </div>
      <Toasts toasts={root.toasts} />
    </div>
  );
}

/**
 * Spec 2.11: the product-feedback widget's trigger. A link to /learn/feedback (the form as a page, without
 * JavaScript); with JavaScript it opens the form in a dialog whose code loads on that click.
 */
function FeedbackTrigger({ returnTo }: { returnTo: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (returnTo.startsWith("/learn/feedback")) return null;
  return (
    <>
      <a
        className="button feedback-trigger"
        href={`/learn/feedback?returnTo=${encodeURIComponent(returnTo)}`}
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        {/* Issue 25 item 5: an icon on phones, its words kept for screen readers; a line of its own never. */}
        <span className="icon icon--feedback" aria-hidden="true" />
        <span className="feedback-trigger__label">{t("feedback.open")}</span>
      </a>
      {open ? (
        <Suspense fallback={null}>
          <FeedbackDialog returnTo={returnTo} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}

/** Spec 2.11: an unsupported browser is told which ones are supported; a form dismisses it (a cookie). */
function BrowserAlert({ returnTo }: { returnTo: string }) {
  const { t } = useTranslation();
  return (
    <div className="browser-alert" role="alert">
      <p>{t("browserAlert.text")}</p>
      <form method="post" action="/learn/browser-alert">
        <input type="hidden" name="intent" value={INTENT.dismissBrowserAlert} />
        <input type="hidden" name="returnTo" value={returnTo} />
        <button type="submit" className="button">
          {t("browserAlert.dismiss")}
        </button>
      </form>
    </div>
  );
}

function SignUpOffer() {
  const { t } = useTranslation();
  const location = useLocation();
  const [dismissed, setDismissed] = useState(false);
  if (dismissed || !location.pathname.startsWith("/learn/open-catalog")) return null;
  const back = encodeURIComponent(location.pathname + location.search);
  return (
    <aside className="signup-offer" aria-labelledby="signup-offer-title">
      <h2 id="signup-offer-title">{t("public.signUpTitle")}</h2>
      <p>{t("public.signUpOffer")}</p>
      <p>
        <a
          className="button button--primary"
          href={`/oidc/login?provider=signup&redirectUrl=${encodeURIComponent("/learn/courses")}`}
        >
          {t("userMenu.signUp")}
        </a>{" "}
        <span>{t("public.haveAccount")}</span> <a href={`/oidc/login?redirectUrl=${back}`}>{t("userMenu.signIn")}</a>
      </p>
      <button type="button" className="link-button signup-offer__close" onClick={() => setDismissed(true)} hidden>
        {t("toast.dismiss")}
      </button>
    </aside>
  );
}
