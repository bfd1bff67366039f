import { data, redirect, type RouterContextProvider } from "react-router";
import { tooManyRequestsPage } from "./command-errors.server";
import { log } from "~/services/logger.server";
import { learnerAreaDecision, isLearnerOnly, type PermissionEntry } from "#domain/access";
import { endpoints } from "#domain/contract/endpoints";
import type { PublicSettings, Settings, User } from "#domain/contract/platform";
import type { ChatUnread } from "#domain/contract/chat";
import { learnerMenu, type MenuEntry } from "#domain/menu";
import { isSupportedLocale } from "#domain/locales";
import { appConfig, clientIp, lmsTransport, type AppConfig } from "./config.server";
import { getLocale } from "./i18n.server";
import { createLmsClient, LmsError, type LmsClient } from "./lms.server";
import { loginUrl } from "./auth.server";
import type { SessionData } from "./session.server";

export interface ShellData {
  user: User;
  permissions: PermissionEntry[];
  licences: string[];
  settings: Settings;
  menu: MenuEntry[];
  learnerOnly: boolean;
  impersonating: boolean;
  /** Issue 16 item 2: unread chat messages over the learner's courses (the header's badge). */
  unread: ChatUnread;
}

/** A client for the signed-in learner; a 401 from the API sends the browser to sign in again (spec 4.15). */
export function lmsFor(
  request: Request,
  context: Readonly<RouterContextProvider>,
  session: SessionData | null,
): LmsClient {
  return createLmsClient({
    accessToken: session?.accessToken ?? null,
    locale: getLocale(context),
    transport: lmsTransport(context),
    baseUrl: appConfig(context).lmsApiUrl,
    onUnauthorized: () => {
      throw redirect(loginUrl(request));
    },
    onTooManyRequests: tooManyRequestsPage,
  });
}

/** A client for a session that is being made (the sign-in callback): no 401 redirect. */
export function lmsWithToken(context: Readonly<RouterContextProvider>, accessToken: string): LmsClient {
  return createLmsClient({
    accessToken,
    locale: getLocale(context),
    transport: lmsTransport(context),
    baseUrl: appConfig(context).lmsApiUrl,
  });
}

/**
 * The learner's language, noted when they choose one (`{ locale }`: their profile's) or sign in
 * without having chosen (`{ browserLocale }`: their e-mails' only, `signInLanguage`). In the background,
 * never in the page's way: an API without e-mail preferences (an external LMS) or a failure changes
 * nothing but the e-mails' language.
 */
export function noteMailLanguage(
  lms: LmsClient,
  language: { locale: string } | { browserLocale: string } | null,
): void {
  const locale = language && ("locale" in language ? language.locale : language.browserLocale);
  if (!language || !isSupportedLocale(locale)) return;
  const body = "locale" in language ? { locale } : { browserLocale: locale };
  void lms.put(endpoints.saveEmailPreferences, body).catch((err: unknown) => {
    log().debug({ err }, "mail: the learner's language was not noted");
  });
}

/** Anonymous client for public calls (open catalog, public certificates): no 401 redirect. */
export function publicLms(context: Readonly<RouterContextProvider>): LmsClient {
  return createLmsClient({
    accessToken: null,
    locale: getLocale(context),
    transport: lmsTransport(context),
    baseUrl: appConfig(context).lmsApiUrl,
    clientIp: clientIp(context),
    onTooManyRequests: tooManyRequestsPage,
  });
}

/** The five calls behind the shell, in parallel (no waterfall); remembered per session (decision 019). */
export async function loadShell(lms: LmsClient, session: SessionData, config: AppConfig): Promise<ShellData> {
  const [user, permissions, licences, settings, unread] = await Promise.all([
    lms.get(endpoints.currentUser),
    lms.get(endpoints.permissions),
    lms.get(endpoints.licences),
    lms.get(endpoints.settings),
    // A hub that cannot answer must not take the pages down: no badge then.
    lms.get(endpoints.chatUnread).catch((): ChatUnread => ({ total: 0, objectiveId: null, channel: null })),
  ]);
  const licenceNames = licences.data.map((l) => l.product);
  return {
    user,
    permissions: permissions.data,
    licences: licenceNames,
    settings,
    learnerOnly: isLearnerOnly(user.roles),
    impersonating: Boolean(session.impersonatedBy),
    unread,
    menu: learnerMenu({
      features: settings.features,
      permissions: permissions.data,
      licences: licenceNames,
      cloudRedirect: settings["platform.common.cloud_redirect"],
      portalUrl: settings["platform.common.portal_url"],
      platformUrl: config.platformUrl,
      roles: user.roles,
    }),
  };
}

/**
 * The tenant's public settings (spec 7.1's configuration). When the API cannot give them the page
 * still renders with the defaults, marked `unavailable` so the shell says "Config couldn't be loaded"
 * (spec 7.1, 8) and the configuration endpoint answers 503.
 */
export async function loadPublicSettings(lms: LmsClient): Promise<PublicSettings & { unavailable?: true }> {
  try {
    return await lms.get(endpoints.publicSettings);
  } catch (err) {
    if (!(err instanceof LmsError)) throw err;
    log().warn({ status: err.status }, "config: public settings could not be loaded; defaults used");
    return {
      portalName: "Learning Portal",
      supportedLocales: "",
      defaultLocale: "en-US",
      features: { catalog: true },
      unavailable: true,
    };
  }
}

/**
 * Spec 6 for the learner area: platform-only licences leave for the platform app; others without
 * ObjectiveWorkflow.Create go to their first menu node or /forbidden.
 */
export function enforceLearnerArea(shell: ShellData, config: AppConfig): void {
  const decision = learnerAreaDecision({
    roles: shell.user.roles,
    permissions: shell.permissions,
    licences: shell.licences,
    firstMenuNodeUrl: shell.learnerOnly ? null : config.adminUrl || null,
  });
  // eslint-disable-next-line local/redirect-targets -- the platform app of the operator's configuration (PLATFORM_URL)
  if (decision.kind === "platform") throw redirect(config.platformUrl);
  if (decision.kind === "forbidden") throw redirect("/learn/forbidden");
  // eslint-disable-next-line local/redirect-targets -- the admin panel of the operator's configuration (ADMIN_URL)
  if (decision.kind === "firstMenuNode") throw redirect(decision.url);
}

/**
 * Spec 2.10: a part of the product the tenant's licence does not include is the 501 page ("Feature is
 * not implemented"), not a missing page; the API answers 501 for it too.
 */
export function requireFeature(shell: ShellData, name: "catalog" | "calendar"): void {
  if (!shell.settings.features[name]) throw data(null, { status: 501 });
}
