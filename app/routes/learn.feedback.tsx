import { data, useActionData, useLoaderData } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.feedback";
import { endpoints } from "#domain/contract/endpoints";
import { state } from "~/services/request.server";
import { LmsError } from "~/services/lms.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { redirectWithToast } from "~/services/toast.server";
import { safeTarget } from "~/services/auth.server";
import type { AppConfig } from "~/services/config.server";
import { commandErrorToast } from "~/services/command-errors.server";
import { formError } from "~/common/forms/errors";
import { parseSubmission } from "~/common/forms/parse";
import { INTENT } from "~/common/forms/intents";
import { feedbackSchema } from "~/common/forms/feedback";
import { serverRenderedWidget } from "~/components/lazy-widget";
import { record } from "~/services/analytics.server";

const FeedbackForm = serverRenderedWidget(() => import("~/components/feedback-form"), { loading: true });

/** Only a path of this app (never `//host` or a URL): where the learner came from. */
/** Where the learner was: a page of the app by the one redirect rule (issue 29 item 4), else /learn. */
function backTo(raw: string | null | undefined, config: AppConfig): string {
  const safe = safeTarget(raw, config);
  return safe.startsWith("/learn") ? safe : "/learn";
}

export const handle = {
  title: (_d: unknown, t: (k: string) => string) => t("feedback.title"),
  breadcrumb: (_d: unknown, t: (k: string) => string) => ({ label: t("feedback.title") }),
};

/**
 * /learn/feedback (spec 2.11, issue 16 item 7): the product-feedback form as a page — what the shell's
 * feedback link opens without JavaScript (with it, the same form in a popover posts here). 404 when the
 * tenant hides the widget (`platform.ui.feedback.learner.visible` false).
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const s = state(context);
  const shell = await s.requireLearner();
  if (!shell.settings["platform.ui.feedback"]["learner.visible"]) throw new Response("Not found", { status: 404 });
  return { commandId: crypto.randomUUID(), returnTo: backTo(url.searchParams.get("returnTo"), s.config) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const s = state(context);
  await s.requireLearner();
  const form = await readForm(request);
  switch (intentOf(form)) {
    case INTENT.feedback: {
      const submission = parseSubmission(form, feedbackSchema);
      if (submission.status !== "success") return data(submission.reply(), { status: 400 });
      const v = submission.value;
      const back = backTo(v.returnTo, s.config);
      try {
        await (
          await s.lms()
        ).command(endpoints.createProductFeedback, {
          id: v.id,
          grade: v.grade,
          details: v.details ?? [],
          comment: v.comment ?? "",
          page: back,
        });
      } catch (err) {
        if (!(err instanceof LmsError)) throw err;
        if (err.status === 400) {
          const fieldErrors: Record<string, string[]> = {};
          for (const [field, list] of Object.entries(err.messages))
            (fieldErrors[["grade", "comment", "details"].includes(field) ? field : ""] ??= []).push(
              ...list.map((m) => formError(m.code, m.params)),
            );
          return data(submission.reply({ fieldErrors }), { status: 400 });
        }
        return redirectWithToast(back, commandErrorToast(err), s.config);
      }
      // Spec 7.1: the analytics event product_feedback (grade, details, comment).
      void record(request, context, [
        {
          name: "product_feedback",
          page: back,
          props: { grade: v.grade, details: v.details ?? [], comment: v.comment ?? "" },
        },
      ]);
      return redirectWithToast(back, { type: "success", key: "feedback.thanks" }, s.config);
    }
    default:
      badRequest();
  }
}

export default function FeedbackPage() {
  const d = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <section className="feedback-page" aria-labelledby="feedback-title">
      <h1 id="feedback-title">{t("feedback.title")}</h1>
      <FeedbackForm commandId={d.commandId} returnTo={d.returnTo} lastResult={lastResult ?? null} />
    </section>
  );
}
