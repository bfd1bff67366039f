import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { useTranslation } from "~/common/i18n";
import { gradingItemHandle } from "~/common/views/grading";
import type { Route } from "./+types/learn.grading.test.$attemptId";
import { endpoints } from "#domain/contract/endpoints";
import { isUuid } from "#domain/contract/common";
import { AttemptState } from "#domain/contract/assessment";
import { state } from "~/services/request.server";
import { dateFormatter } from "~/services/format.server";
import { getLocale } from "~/services/i18n.server";
import { LmsError } from "~/services/lms.server";
import { readForm } from "~/services/forms.server";
import { redirectWithToast } from "~/services/toast.server";
import { commandErrorToast } from "~/services/command-errors.server";
import { formError } from "~/common/forms/errors";
import { FieldErrors } from "~/components/field-errors";
import { QtiItem } from "~/components/assessment/qti-item";

const SCORE = "score.";

export const handle = gradingItemHandle;

const notFound = () => data("not-found", { status: 404 });

async function attemptOf(lms: Awaited<ReturnType<ReturnType<typeof state>["lms"]>>, attemptId: string) {
  return lms.get(endpoints.quizGradingAttempt(attemptId)).catch((err: unknown) => {
    if (err instanceof LmsError && [400, 403, 404].includes(err.status)) throw notFound();
    throw err;
  });
}

/**
 * /learn/grading/test/{attemptId} (decision 065): a test's answers that wait for a person (an essay, an
 * upload) as the grader sees them — each question with the learner's answer, read-only — and one score
 * per answer, saved together. Once every answer has its score the server scores the whole test and the
 * learner sees her result. Not a grader, or her own attempt: 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  if (!isUuid(params.attemptId)) throw notFound();
  const s = state(context);
  const shell = await s.requireLearner();
  const item = await attemptOf(await s.lms(), params.attemptId);
  const fmt = dateFormatter(getLocale(context), shell.user.timezone);
  return {
    item,
    submitted: fmt.dateTime(item.submittedAt),
    scoredOn: Object.fromEntries(item.items.map((i) => [i.ref, fmt.dateTime(i.gradedAt)])),
  };
}

type Result = { fieldErrors: Record<string, string[]>; values: Record<string, string> };

export async function action({ params, request, context }: Route.ActionArgs) {
  if (!isUuid(params.attemptId)) throw notFound();
  const attemptId = params.attemptId;
  const s = state(context);
  await s.requireLearner();
  const lms = await s.lms();
  const item = await attemptOf(lms, attemptId);
  const back = `/learn/grading/test/${attemptId}`;
  const form = await readForm(request);
  const refs = new Set(item.items.map((i) => i.ref));
  const values: Record<string, string> = {};
  const scores: Record<string, number> = {};
  const fieldErrors: Record<string, string[]> = {};
  for (const i of item.items) {
    const raw = String(form.get(`${SCORE}${i.ref}`) ?? "").trim();
    values[i.ref] = raw;
    if (raw === "") continue;
    const n = Number(raw.replace(",", "."));
    if (!Number.isFinite(n) || n < 0 || n > i.maxScore)
      fieldErrors[i.ref] = [formError("gradingScoreRange", { max: i.maxScore })];
    else scores[i.ref] = n;
  }
  if (Object.keys(fieldErrors).length === 0 && Object.keys(scores).length === 0) fieldErrors[""] = ["required"];
  if (Object.keys(fieldErrors).length > 0) return data<Result>({ fieldErrors, values }, { status: 400 });
  try {
    const after = await lms.put(endpoints.scoreQuizAnswers(attemptId), { scores });
    const done = after.state === AttemptState.done;
    return redirectWithToast(
      done ? "/learn/grading" : back,
      { type: "success", key: done ? "grading.testScored" : "grading.scoresSaved" },
      s.config,
    );
  } catch (err) {
    if (!(err instanceof LmsError)) throw err;
    if (err.status === 404) throw notFound();
    if (err.status === 400) {
      for (const [field, list] of Object.entries(err.messages)) {
        const ref = field.startsWith("scores.") ? field.slice("scores.".length) : "";
        (fieldErrors[refs.has(ref) ? ref : ""] ??= []).push(...list.map((m) => formError(m.code, m.params)));
      }
      return data<Result>({ fieldErrors, values }, { status: 400 });
    }
    return redirectWithToast(back, commandErrorToast(err), s.config);
  }
}

export default function GradeTestPage() {
  const { item, submitted, scoredOn } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as Result | undefined;
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation();
  const open = item.state === AttemptState.inGrading;
  return (
    <div className="grading grading--one">
      <p className="hand-in__back">
        <Link to="/learn/grading">{t("grading.backToQueue")}</Link>
      </p>
      <h1>{t("grading.itemTitle", { learner: item.learner.name, activity: item.activity.name })}</h1>
      <p className="hand-in__meta">
        {item.objective.name} · <span dir="auto">{item.title}</span>
      </p>
      <p className="hand-in__meta">
        {t("handIn.submittedOn", { date: submitted ?? "" })}
        {" · "}
        {open ? t("grading.waiting", { n: item.waiting }) : t("grading.testDone")}
      </p>
      <Form method="post" className="hand-in__form" aria-label={t("grading.answers")}>
        <p className="hand-in__meta">{t("grading.scoresHint")}</p>
        <FieldErrors errors={result?.fieldErrors[""]} className="field-errors notice" />
        {item.items.map((i, n) => {
          const id = `score-${i.ref}`;
          const errors = result?.fieldErrors[i.ref];
          return (
            <QtiItem
              key={i.ref}
              view={i.view}
              itemRef={i.ref}
              saved={i.response}
              files={i.files}
              number={n + 1}
              readOnly
            >
              <div className="hand-in__field">
                <label htmlFor={id}>{t("grading.scoreOf", { max: i.maxScore })}</label>
                <input
                  id={id}
                  name={`${SCORE}${i.ref}`}
                  inputMode="decimal"
                  defaultValue={result?.values[i.ref] ?? i.gradedScore ?? ""}
                  readOnly={!open}
                  aria-invalid={errors?.length ? true : undefined}
                  aria-describedby={errors?.length ? `${id}-errors` : undefined}
                />
                <FieldErrors errors={errors} id={`${id}-errors`} />
                {i.gradedScore !== null && i.gradedBy ? (
                  <p className="hand-in__meta">
                    {t("grading.scoredBy", { score: i.gradedScore, grader: i.gradedBy, date: scoredOn[i.ref] ?? "" })}
                  </p>
                ) : null}
              </div>
            </QtiItem>
          );
        })}
        {open ? (
          <div className="hand-in__actions">
            <button type="submit" className="button button--primary" disabled={busy}>
              {t("grading.saveScores")}
            </button>
          </div>
        ) : null}
      </Form>
    </div>
  );
}
