import { randomUUID } from "node:crypto";
import { data, Form, Link, useLoaderData } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/learn.courses.$id.assessment";
import { useTranslation } from "~/common/i18n";
import { endpoints } from "#domain/contract/endpoints";
import { AttemptState, type AssessmentAttempt, type AssessmentReview } from "#domain/contract/assessment";
import { responsesFromForm } from "#domain/qti/form";
import type { RawResponses } from "#domain/qti/responses";
import { safeRedirectWithin } from "#domain/redirect";
import { state } from "~/services/request.server";
import { requireCourseId } from "~/services/catalog.server";
import { LmsError } from "~/services/lms.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { redirectWithToast } from "~/services/toast.server";
import { commandErrorToast } from "~/services/command-errors.server";
import { dateFormatter } from "~/services/format.server";
import { getLocale } from "~/services/i18n.server";
import { INTENT } from "~/common/forms/intents";
import { QtiItem, solutionText } from "~/components/assessment/qti-item";
import { AssessmentEnhancements } from "~/components/assessment/enhancements";

const paramsSchema = z.object({ workflowId: z.uuid(), awId: z.uuid() });
const saveSchema = z.object({
  page: z.coerce.number().int().min(0).max(10_000),
  commandId: z.uuid(),
  go: z.string().max(20).optional(),
});

export const handle = {
  title: (d: { attempt?: { title: string } | null; title?: string } | undefined) =>
    d?.attempt?.title ?? d?.title ?? null,
};

function pathsOf(courseId: string, workflowId: string, awId: string) {
  const base = `/learn/courses/${courseId}/assessment/${workflowId}/${awId}`;
  return { base, content: `/learn/courses/${courseId}/view/content` };
}

/**
 * A QTI test or survey of the course (decision 055): each page one form of plain controls,
 * posted to this route; `?page=` another page of a nonlinear part, `?confirm` the list of unanswered
 * questions before submitting, `?review` the review the reveal rules allow. The server scores it.
 */
export async function loader({ params, context, url }: Route.LoaderArgs) {
  const courseId = requireCourseId(params.id);
  const p = paramsSchema.safeParse(params);
  if (!p.success) throw data("not-found", { status: 404 });
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const { workflowId, awId } = p.data;
  const fmt = dateFormatter(getLocale(context), shell.user.timezone);
  const pageParam = url.searchParams.get("page");
  const page = pageParam !== null && /^\d{1,5}$/.test(pageParam) ? Number(pageParam) : undefined;
  const endpoint = endpoints.assessmentAttempt(workflowId, awId);
  let attempt: AssessmentAttempt | null = null;
  try {
    attempt = await lms.get(endpoint, page === undefined ? undefined : { page });
  } catch (err) {
    if (!(err instanceof LmsError) || err.status !== 404) throw err;
    // A page that does not exist, or an attempt not started yet: the start page (404 for another learner's).
    if (page !== undefined) throw data("not-found", { status: 404 });
  }
  let review: AssessmentReview | null = null;
  if (attempt && attempt.state !== AttemptState.inProgress && url.searchParams.has("review") && attempt.reviewAllowed)
    review = await lms.get(endpoints.assessmentReview(workflowId, awId));
  return {
    courseId,
    workflowId,
    awId,
    attempt,
    review,
    confirm: url.searchParams.has("confirm") && attempt?.state === AttemptState.inProgress,
    deadline: attempt?.deadline ? fmt.dateTime(attempt.deadline) : null,
    // A new id for each page's form: a double post of the same form is one save (spec 7.7).
    commandId: randomUUID(),
  };
}

/** Every response of the page's items from the posted form (an emptied control clears its answer). */
function answersOf(form: FormData, attempt: AssessmentAttempt): Record<string, RawResponses> {
  const get = (name: string) => form.getAll(name).filter((v): v is string => typeof v === "string");
  return Object.fromEntries(attempt.page!.items.map((i) => [i.ref, responsesFromForm(i.view, i.ref, get)]));
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const courseId = requireCourseId(params.id);
  const p = paramsSchema.safeParse(params);
  if (!p.success) badRequest();
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const { workflowId, awId } = p.data;
  const paths = pathsOf(courseId, workflowId, awId);
  const back = (target: string) =>
    safeRedirectWithin(target, `/learn/courses/${courseId}`, { appOrigin: s.config.appUrl, fallback: paths.content });
  const form = await readForm(request);
  const failed = async (err: unknown, here: string) => {
    if (!(err instanceof LmsError) || err.status >= 500) throw err;
    const fmt = dateFormatter(getLocale(context), shell.user.timezone);
    return redirectWithToast(back(here), commandErrorToast(err, fmt), s.config);
  };
  switch (intentOf(form)) {
    case INTENT.assessmentStart:
      try {
        await lms.put(endpoints.startAssessment(workflowId, awId), {});
      } catch (err) {
        return failed(err, paths.base);
      }
      return redirectWithToast(back(paths.base), [], s.config);
    case INTENT.assessmentSave: {
      const parsed = saveSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success) badRequest();
      const { page, commandId, go } = parsed.data;
      let attempt: AssessmentAttempt;
      try {
        attempt = await lms.get(endpoints.assessmentAttempt(workflowId, awId), { page });
      } catch (err) {
        return failed(err, paths.base);
      }
      if (!attempt.page) return redirectWithToast(back(paths.base), [], s.config);
      const target = go === "confirm" ? "confirm" : go !== undefined && /^\d{1,5}$/.test(go) ? Number(go) : undefined;
      try {
        await lms.command(endpoints.saveAssessmentAnswers(workflowId, awId), {
          id: commandId,
          page,
          answers: answersOf(form, attempt),
          ...(typeof target === "number" ? { go: target } : {}),
        });
      } catch (err) {
        return failed(err, `${paths.base}?page=${page}`);
      }
      if (target === "confirm") return redirectWithToast(back(`${paths.base}?confirm`), [], s.config);
      const next = typeof target === "number" ? target : page;
      return redirectWithToast(
        back(`${paths.base}?page=${next}`),
        { type: "success", key: "assessment.saved" },
        s.config,
      );
    }
    case INTENT.assessmentSubmit: {
      const id = z.uuid().safeParse(form.get("commandId"));
      if (!id.success) badRequest();
      try {
        await lms.command(endpoints.submitAssessment(workflowId, awId), { id: id.data });
      } catch (err) {
        return failed(err, `${paths.base}?confirm`);
      }
      return redirectWithToast(back(paths.base), { type: "success", key: "assessment.submitted" }, s.config);
    }
    default:
      badRequest();
  }
}

function Result({ a }: { a: AssessmentAttempt }) {
  const { t } = useTranslation();
  if (a.survey) return <p className="notice">{t("assessment.surveyDone")}</p>;
  return (
    <div className="qti-result">
      {a.ended === "timeUp" ? <p className="notice">{t("assessment.timeUp")}</p> : null}
      {a.state === AttemptState.inGrading ? <p className="notice">{t("assessment.inGrading")}</p> : null}
      {a.score !== null && a.maxScore !== null ? (
        <p className="qti-result__score">
          {t("assessment.score", { score: Math.round(a.score * 100) / 100, max: a.maxScore })}
          {a.passed !== null ? ` · ${a.passed ? t("assessment.passed") : t("assessment.notPassed")}` : null}
        </p>
      ) : (
        <p>{t("assessment.submittedNote")}</p>
      )}
    </div>
  );
}

export default function AssessmentPage() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const paths = pathsOf(d.courseId, d.workflowId, d.awId);
  const a = d.attempt;
  const backLink = (
    <p>
      <Link to={paths.content}>{t("assessment.backToCourse")}</Link>
    </p>
  );
  if (!a)
    return (
      <main className="qti-page">
        <h1>{t("assessment.startTitle")}</h1>
        <p>{t("assessment.startNote")}</p>
        <Form method="post">
          <input type="hidden" name="intent" value={INTENT.assessmentStart} />
          <button type="submit" className="button button--primary">
            {t("assessment.start")}
          </button>
        </Form>
        {backLink}
      </main>
    );
  if (d.review)
    return (
      <main className="qti-page">
        <h1>{t("assessment.reviewTitle", { title: a.title })}</h1>
        <Result a={a} />
        {d.review.items.map((item, n) => (
          <QtiItem key={item.ref} view={item.view} itemRef={item.ref} saved={item.response} number={n + 1} readOnly>
            <div className="qti__outcome">
              {item.response === null ? <p>{t("assessment.notAnswered")}</p> : null}
              {item.awaitingPerson ? <p>{t("assessment.awaitingPerson")}</p> : null}
              {item.score !== null &&
              item.score !== undefined &&
              item.maxScore !== null &&
              item.maxScore !== undefined ? (
                <p>{t("assessment.itemScore", { score: item.score, max: item.maxScore })}</p>
              ) : null}
              {item.view.solution && Object.keys(item.view.solution).length > 0 ? (
                <p>{t("assessment.correctAnswer", { answer: solutionText(item.view, item.view.solution) })}</p>
              ) : null}
            </div>
          </QtiItem>
        ))}
        {backLink}
      </main>
    );
  if (a.state !== AttemptState.inProgress)
    return (
      <main className="qti-page">
        <h1>{a.title}</h1>
        <Result a={a} />
        {a.reviewAllowed ? (
          <p>
            <Link className="button" to={`${paths.base}?review`}>
              {t("assessment.review")}
            </Link>
          </p>
        ) : null}
        {backLink}
      </main>
    );
  const unanswered = a.pages
    .flatMap((p) => p.items)
    .map((i, n) => ({ ...i, n: n + 1 }))
    .filter((i) => !i.answered);
  if (d.confirm)
    return (
      <main className="qti-page">
        <h1>{t(a.survey ? "assessment.confirmSurvey" : "assessment.confirmTitle")}</h1>
        {unanswered.length > 0 ? (
          <p role="alert">{t("assessment.unanswered", { list: unanswered.map((i) => i.n).join(", ") })}</p>
        ) : (
          <p>{t("assessment.allAnswered")}</p>
        )}
        <Form method="post" className="qti-page__actions">
          <input type="hidden" name="intent" value={INTENT.assessmentSubmit} />
          <input type="hidden" name="commandId" value={d.commandId} />
          <button type="submit" className="button button--primary">
            {t("assessment.submit")}
          </button>{" "}
          <Link to={`${paths.base}?page=${a.current}`}>{t("assessment.backToQuestions")}</Link>
        </Form>
      </main>
    );
  const page = a.page!;
  const linear = a.navigation === "linear";
  const last = page.index === a.pages.length - 1;
  const firstNumber = a.pages.slice(0, page.index).reduce((n, p) => n + p.items.length, 0);
  return (
    <main className="qti-page">
      <h1>{a.title}</h1>
      <p className="qti-page__meta">
        {t("assessment.pageOf", { n: page.index + 1, total: a.pages.length })}
        {page.title && page.title !== a.title ? ` · ${page.title}` : null}
        {d.deadline ? (
          <>
            {" · "}
            <span>{t("assessment.deadline", { time: d.deadline })}</span>
          </>
        ) : null}
      </p>
      {linear ? <p className="qti-hint">{t("assessment.linear")}</p> : null}
      {!linear && a.pages.length > 1 ? (
        <nav aria-label={t("assessment.pages")} className="qti-nav">
          <ul>
            {a.pages.map((p) => (
              <li key={p.index}>
                <Link to={`${paths.base}?page=${p.index}`} aria-current={p.index === page.index ? "page" : undefined}>
                  {t("assessment.pageN", { n: p.index + 1 })}{" "}
                  <span className="qti-nav__count">
                    (
                    {t("assessment.answeredCount", {
                      n: p.items.filter((i) => i.answered).length,
                      total: p.items.length,
                    })}
                    )
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <Form method="post" className="qti-form" id="qti-form">
        <input type="hidden" name="intent" value={INTENT.assessmentSave} />
        <input type="hidden" name="page" value={page.index} />
        <input type="hidden" name="commandId" value={d.commandId} />
        {page.items.map((item, n) => (
          <QtiItem
            key={item.ref}
            view={item.view}
            itemRef={item.ref}
            saved={item.response}
            number={firstNumber + n + 1}
          />
        ))}
        <div className="qti-page__actions">
          {!linear && page.index > 0 ? (
            <button type="submit" name="go" value={String(page.index - 1)} className="button">
              {t("assessment.previous")}
            </button>
          ) : null}
          {!linear ? (
            <button type="submit" className="button">
              {t("assessment.save")}
            </button>
          ) : null}
          {!last ? (
            <button type="submit" name="go" value={String(page.index + 1)} className="button button--primary">
              {t("assessment.next")}
            </button>
          ) : (
            <button type="submit" name="go" value="confirm" className="button button--primary">
              {t("assessment.finish")}
            </button>
          )}
        </div>
      </Form>
      <AssessmentEnhancements deadline={a.deadline} />
    </main>
  );
}
