import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { z } from "zod";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.email-response-callback";
import { endpoints } from "#domain/contract/endpoints";
import { isAnswerCorrect, isAnswered, readReinforcementLink } from "#domain/reinforcement";
import type { ReinforcementWorkflow } from "#domain/contract/reinforcement";
import { state } from "~/services/request.server";
import { LmsError, type LmsClient } from "~/services/lms.server";
import { isTooManyRequests, tooManyRequestsToast } from "~/services/command-errors.server";
import { redirectWithToast } from "~/services/toast.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { parseSubmission } from "~/common/forms/parse";
import { formError } from "~/common/forms/errors";
import { INTENT } from "~/common/forms/intents";
import { FieldErrors } from "~/components/field-errors";

export const handle = {
  title: (_d: unknown, t: (k: string) => string) => t("reinforcement.title"),
};

/** The one form of the page: the option the learner confirms (a fresh command id makes a retry one answer). */
const answerSchema = z.object({
  intent: z.literal(INTENT.answer),
  workflowId: z.uuid(),
  answer: z.string().trim().min(1).max(64),
  commandId: z.uuid(),
});

type Page =
  | { kind: "invalid" }
  | { kind: "notFound" }
  | { kind: "question"; workflow: ReinforcementWorkflow; chosen: string; commandId: string }
  | { kind: "review"; workflow: ReinforcementWorkflow; reviewUrl: string };

const reviewUrl = (wf: ReinforcementWorkflow) =>
  `/learn/courses/${wf.objectiveId}/view/content?activityId=${encodeURIComponent(wf.activityId)}`;

async function workflowOrNull(lms: LmsClient, id: string) {
  try {
    return await lms.get(endpoints.reinforcementWorkflow(id));
  } catch (err) {
    if (err instanceof LmsError && err.status === 404) return null;
    throw err;
  }
}

/**
 * /learn/email-response-callback?answer=…&workflowId=… (spec 2.1, 2.8, 4.10). A GET never records
 * the answer — mail scanners open links — it shows the question with the clicked option chosen and
 * one button that sends it. Answered already: the review. Sign-in returns to this same link.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const s = state(context);
  await s.requireLearner();
  const link = readReinforcementLink(url.searchParams);
  if (!link.ok) return data({ page: { kind: "invalid" } as Page }, { status: 400 });
  const lms = await s.lms();
  const workflow = await workflowOrNull(lms, link.workflowId);
  if (!workflow) return data({ page: { kind: "notFound" } as Page }, { status: 404 });
  if (isAnswered(workflow)) return { page: { kind: "review", workflow, reviewUrl: reviewUrl(workflow) } as Page };
  const chosen = workflow.options.some((o) => o.id === link.answer) ? link.answer : "";
  return { page: { kind: "question", workflow, chosen, commandId: crypto.randomUUID() } as Page };
}

export async function action({ request, context }: Route.ActionArgs) {
  const s = state(context);
  await s.requireLearner();
  const form = await readForm(request);
  switch (intentOf(form)) {
    case INTENT.answer: {
      const submission = parseSubmission(form, answerSchema);
      if (submission.status !== "success") return data(submission.reply(), { status: 400 });
      const { workflowId, answer, commandId } = submission.value;
      const lms = await s.lms();
      try {
        await lms.command(endpoints.answerReinforcement(workflowId), { answer, commandId });
      } catch (err) {
        if (err instanceof LmsError && err.status === 400)
          return data(submission.reply({ fieldErrors: { answer: [formError("invalid")] } }), { status: 400 });
        // Too many answers in a row: the same page again with the toast (spec 8), never a 500.
        if (err instanceof LmsError && isTooManyRequests(err))
          throw await redirectWithToast(
            `/learn/email-response-callback?${new URLSearchParams({ answer, workflowId })}`,
            tooManyRequestsToast(err),
            s.config,
            { status: 303 },
          );
        if (!(err instanceof LmsError && err.status === 404)) throw err;
      }
      // Post/redirect/get: the same link now shows the review (answered), whatever was clicked.
      const back = new URLSearchParams({ answer, workflowId });
      throw redirect(`/learn/email-response-callback?${back}`, 303);
    }
    default:
      badRequest();
  }
}

export default function EmailResponse() {
  const { page } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  if (page.kind === "invalid" || page.kind === "notFound")
    return (
      <section className="reinforcement reinforcement--problem" aria-labelledby="reinforcement-title">
        <h1 id="reinforcement-title">
          {page.kind === "invalid" ? t("reinforcement.invalidTitle") : t("messages.workflowNotFound")}
        </h1>
        <p>{page.kind === "invalid" ? t("reinforcement.invalidUrl") : t("reinforcement.notFoundText")}</p>
        <Link className="button button--primary" to="/learn">
          {t("reinforcement.goHome")}
        </Link>
      </section>
    );
  if (page.kind === "review") return <Review workflow={page.workflow} reviewUrl={page.reviewUrl} />;
  return <Question workflow={page.workflow} chosen={page.chosen} commandId={page.commandId} />;
}

function Question({
  workflow,
  chosen,
  commandId,
}: {
  workflow: ReinforcementWorkflow;
  chosen: string;
  commandId: string;
}) {
  const { t } = useTranslation();
  const reply = useActionData<typeof action>();
  const errors = reply && "error" in reply ? (reply.error?.answer ?? undefined) : undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === INTENT.answer;
  return (
    <section className="reinforcement" aria-labelledby="reinforcement-title">
      <p className="reinforcement__context">
        {t("reinforcement.context", { module: workflow.moduleName, course: workflow.objectiveName })}
      </p>
      <h1 id="reinforcement-title">{t("reinforcement.title")}</h1>
      <Form method="post" className="reinforcement__form" noValidate>
        <input type="hidden" name="intent" value={INTENT.answer} />
        <input type="hidden" name="workflowId" value={workflow.id} />
        <input type="hidden" name="commandId" value={commandId} />
        <fieldset aria-describedby={errors ? "answer-errors" : undefined}>
          <legend className="reinforcement__question">{workflow.question}</legend>
          <ul className="reinforcement__options">
            {workflow.options.map((o) => (
              <li key={o.id}>
                <label>
                  <input type="radio" name="answer" value={o.id} defaultChecked={o.id === chosen} required />
                  <span>{o.text}</span>
                </label>
              </li>
            ))}
          </ul>
          <FieldErrors id="answer-errors" errors={errors} />
        </fieldset>
        <p className="reinforcement__hint">{t("reinforcement.confirmHint")}</p>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? t("reinforcement.sending") : t("reinforcement.send")}
        </button>
      </Form>
    </section>
  );
}

function Review({ workflow, reviewUrl }: { workflow: ReinforcementWorkflow; reviewUrl: string }) {
  const { t } = useTranslation();
  const correct = isAnswerCorrect(workflow.normalizedScore);
  return (
    <section className="reinforcement" aria-labelledby="reinforcement-title">
      <p className="reinforcement__context">
        {t("reinforcement.context", { module: workflow.moduleName, course: workflow.objectiveName })}
      </p>
      <h1 id="reinforcement-title">{workflow.question}</h1>
      <div
        className={`reinforcement__result reinforcement__result--${correct ? "correct" : "incorrect"}`}
        role="status"
      >
        <p className="reinforcement__verdict">{correct ? t("reinforcement.correct") : t("reinforcement.incorrect")}</p>
        <p>{t("reinforcement.yourAnswer", { answer: workflow.answerText ?? "" })}</p>
        {workflow.feedback ? <p className="reinforcement__feedback">{workflow.feedback}</p> : null}
      </div>
      <Link className="button button--primary" to={reviewUrl}>
        {t("reinforcement.reviewModule")}
      </Link>
    </section>
  );
}
