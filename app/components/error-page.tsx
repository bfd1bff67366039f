import { isRouteErrorResponse, Link } from "react-router";
import { useTranslation } from "~/common/i18n";
import { ACTIVITY_NOT_FOUND, NO_ACCOUNT } from "~/common/errors";

export function errorStatus(error: unknown): number {
  if (isRouteErrorResponse(error)) return error.status;
  return 500;
}

const KNOWN = new Set([401, 403, 404, 429, 500, 501]);

/** The seconds of a 429 (issue 29: the API's 429 as the app's page, with when to come back). */
function retryAfterSeconds(error: unknown): number | null {
  if (!isRouteErrorResponse(error) || error.status !== 429) return null;
  const seconds = Number((error.data as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 60;
}

/** Marks a 404 as spec 2.5's 'Course is not available' (missing access rights). */
const COURSE_UNAVAILABLE = "course-unavailable";

/** Which of spec 2.10's pages an error is: its texts are `errors.<variant>.title` and `.text`. */
export function errorVariant(status: number, error: unknown): string {
  if (status === 404 && isRouteErrorResponse(error) && error.data === ACTIVITY_NOT_FOUND) return "404activity";
  if (status === 404 && isRouteErrorResponse(error) && error.data === COURSE_UNAVAILABLE) return "courseUnavailable";
  if (status === 403 && isRouteErrorResponse(error) && error.data === NO_ACCOUNT) return "noAccount";
  return KNOWN.has(status) ? String(status) : "other";
}

/**
 * Spec 2.10 error pages. The button leads to a fallback URL when given, else the learner app root
 * for learner-only users ('Go to My courses'), else / ('Go to Content library'). /forbidden has none.
 */
export function ErrorPage({
  status,
  error,
  learnerOnly,
  dev = false,
  fallbackUrl,
  showButton = true,
}: {
  status: number;
  error?: unknown;
  learnerOnly: boolean;
  dev?: boolean;
  fallbackUrl?: string;
  showButton?: boolean;
}) {
  const { t } = useTranslation();
  const variant = errorVariant(status, error);
  const href = fallbackUrl ?? (learnerOnly ? "/learn" : "/");
  const stack = dev && error instanceof Error ? error.stack : null;
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-page__code">{t("errors.statusCode", { status })}</p>
      <h1 id="error-title">{t(`errors.${variant}.title`)}</h1>
      <p>{t(`errors.${variant}.text`, { seconds: retryAfterSeconds(error) ?? undefined })}</p>
      {variant === "noAccount" ? (
        // Decision 049: the way out is signing out (at the provider too), not the courses she has none of.
        <form method="post" action="/oidc/logout">
          <button type="submit" className="button button--primary">
            {t("userMenu.signOut")}
          </button>
        </form>
      ) : showButton ? (
        <Link className="button button--primary" to={href} reloadDocument={!href.startsWith("/learn")}>
          {learnerOnly || fallbackUrl ? t("errors.goToMyCourses") : t("errors.goToContentLibrary")}
        </Link>
      ) : null}
      {stack ? (
        <details className="error-page__details">
          <summary>{t("errors.technicalDetails")}</summary>
          <pre>{stack}</pre>
        </details>
      ) : null}
    </section>
  );
}
