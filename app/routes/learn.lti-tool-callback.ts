import type { Route } from "./+types/learn.lti-tool-callback";
import { sameOriginPath } from "#domain/lti";
import { getInstance } from "~/services/i18n.server";
import { ltiPage } from "~/services/lti.server";

/**
 * /learn/lti-tool-callback (spec 2.1, 2.6; issue 14 item 6): where a tool sends its frame when it is
 * done. Flags become messages to the parent window — `do_contructor_logout=1` sign-out,
 * `do_contructor_re_login=1` sign-in again, `do_navigation=<path>` navigation (same-origin paths only;
 * anything else is refused with 400), no flag an LTI redirect (the course view reloads). Messages name
 * this origin as their target, never `*`. Without JavaScript the page offers a link.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const { t } = getInstance(context);
  const q = new URL(request.url).searchParams;
  if (q.get("do_contructor_logout") === "1")
    return ltiPage(context, {
      message: t("lti.bridge.returned"),
      bridge: { message: { subject: "lms.logout" }, link: "/learn" },
    });
  if (q.get("do_contructor_re_login") === "1")
    return ltiPage(context, {
      message: t("lti.bridge.returned"),
      bridge: { message: { subject: "lms.relogin" }, link: "/oidc/login" },
    });
  const target = q.get("do_navigation");
  if (target !== null) {
    const path = sameOriginPath(target);
    if (!path) return ltiPage(context, { status: 400, message: t("lti.bridge.offsite") });
    return ltiPage(context, {
      message: t("lti.bridge.returned"),
      bridge: { message: { subject: "lms.navigate", path }, link: path },
    });
  }
  return ltiPage(context, {
    message: t("lti.bridge.returned"),
    bridge: { message: { subject: "lti.redirect" }, link: "/learn/courses" },
  });
}
