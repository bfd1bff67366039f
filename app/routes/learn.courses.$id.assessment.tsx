import { randomUUID } from "node:crypto";
import { useCallback, useState } from "react";
import { data, Form, isRouteErrorResponse, Link, useLoaderData, type ShouldRevalidateFunctionArgs } from "react-router";
import { retryAfterOf } from "#domain/retry-after";
import { z } from "zod";
import type { Route } from "./+types/learn.courses.$id.assessment";
import { useTranslation } from "~/common/i18n";
import { endpoints } from "#domain/contract/endpoints";
import { AttemptState, type AssessmentAttempt, type AssessmentReview } from "#domain/contract/assessment";
import { responsesFromForm, viewInteractions } from "#domain/qti/form";
import { answerFileField, type AttemptPageItem } from "#domain/contract/assessment";
import type { RawResponses } from "#domain/qti/responses";
import { safeRedirectWithin } from "#domain/redirect";
import { state } from "~/services/request.server";
import { requireCourseId } from "~/services/course-id.server";
import { LmsError } from "~/services/lms.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { redirectWithToast } from "~/services/toast.server";
import { commandErrorToast } from "~/services/command-errors.server";
import { dateFormatter } from "~/services/format.server";
import { getLocale } from "~/services/i18n.server";
import { INTENT } from "~/common/forms/intents";
import { QtiItem, solutionText } from "~/components/assessment/qti-item";
import { AssessmentEnhancements } from "~/components/assessment/enhancements";
import { AutosaveStatus, useAutosave, type AutosaveResult } from "~/components/assessment/autosave";
import { QuestionNavigator, type ItemMark } from "~/components/assessment/navigator";
import { useHydrated } from "~/components/use-hydrated";
import { isTooManyRequests } from "~/services/command-errors.server";

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

/** The file inputs of an item's uploads (decision 068): the response and the field its file is posted in. */
const uploadsOf = (item: Pick<AttemptPageItem, "ref" | "view">) =>
  viewInteractions(item.view)
    .filter((i) => i.type === "upload")
    .map((i) => ({ response: i.response, field: answerFileField(item.ref, i.response) }));

/** The files chosen in the page's upload inputs (an input left empty posts an empty file: none). */
function filesOf(form: FormData, attempt: AssessmentAttempt): { field: string; file: File }[] {
  return attempt.page!.items.flatMap((item) =>
    uploadsOf(item).flatMap(({ field }) =>
      form
        .getAll(field)
        .filter((v): v is File => typeof v !== "string" && v.size > 0)
        .slice(0, 1)
        .map((file) => ({ field, file })),
    ),
  );
}

/** The page's save as the API's multipart command: its fields, and each chosen file in its upload's part. */
function multipartSave(
  body: { id: string; page: number; answers: Record<string, RawResponses>; flagged: string[]; go?: number },
  files: { field: string; file: File }[],
): FormData {
  const upload = new FormData();
  upload.set("id", body.id);
  upload.set("page", String(body.page));
  upload.set("answers", JSON.stringify(body.answers));
  upload.set("flagged", JSON.stringify(body.flagged));
  if (body.go !== undefined) upload.set("go", String(body.go));
  for (const { field, file } of files) upload.append(field, file, file.name);
  return upload;
}

/** The page's questions the learner flagged "for review" (a checkbox per question, decision 057). */
function flagsOf(form: FormData, attempt: AssessmentAttempt): string[] {
  const refs = new Set(attempt.page!.items.map((i) => i.ref));
  return form.getAll("flagged").filter((v): v is string => typeof v === "string" && refs.has(v));
}

/** The marks of the page's questions from the form as it is now (with JavaScript, as the learner goes). */
function marksOf(formEl: HTMLFormElement, items: AttemptPageItem[]) {
  const form = new FormData(formEl);
  const get = (name: string) => form.getAll(name).filter((v): v is string => typeof v === "string");
  const flags = new Set(get("flagged"));
  return Object.fromEntries(
    items.map((i) => {
      const r = responsesFromForm(i.view, i.ref, get);
      // An upload is answered by the file sent before, or one chosen now.
      const uploaded = uploadsOf(i).some(
        (u) =>
          (i.response?.[u.response]?.length ?? 0) > 0 ||
          form.getAll(u.field).some((v) => typeof v !== "string" && v.size > 0),
      );
      const answered = uploaded || Object.values(r).some((v) => v.some((x) => x.trim() !== ""));
      return [i.ref, { answered, flagged: flags.has(i.ref) }];
    }),
  ) as Record<string, ItemMark>;
}

/** The autosave's answer to the page (decision 057): saved at, retry after, time up, or refused and why. */
async function autosave(
  form: FormData,
  ctx: { lms: Awaited<ReturnType<ReturnType<typeof state>["lms"]>>; workflowId: string; awId: string },
  time: () => string,
) {
  const parsed = saveSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) badRequest();
  const { page, commandId } = parsed.data;
  try {
    const attempt = await ctx.lms.get(endpoints.assessmentAttempt(ctx.workflowId, ctx.awId), { page });
    if (!attempt.page) return data({ autosave: "timeUp", commandId } satisfies AutosaveResult, { status: 409 });
    await ctx.lms.command(endpoints.saveAssessmentAnswers(ctx.workflowId, ctx.awId), {
      id: commandId,
      page,
      answers: answersOf(form, attempt),
      flagged: flagsOf(form, attempt),
    });
    return { autosave: "saved", commandId, at: time() } satisfies AutosaveResult;
  } catch (err) {
    if (!(err instanceof LmsError)) throw err;
    const code = err.firstMessage()?.code;
    if (code === "assessmentTimeUp" || code === "assessmentSubmitted")
      return data({ autosave: "timeUp", commandId } satisfies AutosaveResult, { status: 409 });
    if (err.status === 503 || err.status === 0 || isTooManyRequests(err)) {
      const retryAfter = err.retryAfterSeconds;
      return data({ autosave: "retry", commandId, retryAfter } satisfies AutosaveResult, {
        status: err.status === 429 ? 429 : 503,
        headers: { "Retry-After": String(retryAfter ?? 5), "Cache-Control": "no-store" },
      });
    }
    if (err.status >= 500) throw err;
    const toast = commandErrorToast(err);
    return data(
      {
        autosave: "refused",
        commandId,
        key: toast.key,
        ...(toast.values
          ? { values: Object.fromEntries(Object.entries(toast.values).map(([k, v]) => [k, String(v)])) }
          : {}),
      } satisfies AutosaveResult,
      { status: err.status },
    );
  }
}

/**
 * With JavaScript, the autosave goes through here: a refusal the server's front gives before the action
 * runs (503 when overloaded, a dropped connection) is an answer to retry, not an error page — after the
 * refusal's Retry-After when it names one, else after the autosave's own backoff.
 */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const form = await request.clone().formData();
  if (form.get("intent") !== INTENT.assessmentAutosave) return serverAction();
  try {
    return await serverAction();
  } catch (err) {
    const commandId = String(form.get("commandId"));
    // An overloaded node's 503 names its Retry-After in its body too: the save waits as long (decision 069).
    const retryAfter = isRouteErrorResponse(err) ? retryAfterOf(err.data) : null;
    return { autosave: "retry", commandId, retryAfter } satisfies AutosaveResult;
  }
}

/** An autosave changes nothing the page shows from the server: no loader runs again for it. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formData?.get("intent") === INTENT.assessmentAutosave) return false;
  return defaultShouldRevalidate;
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
    case INTENT.assessmentAutosave: {
      const locale = getLocale(context);
      const at = () =>
        new Intl.DateTimeFormat(locale, {
          hour: "numeric",
          minute: "2-digit",
          timeZone: dateFormatter(locale, shell.user.timezone).timeZone,
        }).format(new Date());
      return autosave(form, { lms, workflowId, awId }, at);
    }
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
      const body = {
        id: commandId,
        page,
        answers: answersOf(form, attempt),
        flagged: flagsOf(form, attempt),
        ...(typeof target === "number" ? { go: target } : {}),
      };
      const files = filesOf(form, attempt);
      const endpoint = endpoints.saveAssessmentAnswers(workflowId, awId);
      try {
        await lms.command(endpoint, files.length > 0 ? multipartSave(body, files) : body);
      } catch (err) {
        // Decision 068: a refused file does not lose the page's other answers — they are saved without it.
        if (files.length > 0 && err instanceof LmsError && (err.status === 400 || err.status === 413)) {
          const fileRefused = Object.values(err.messages)
            .flat()
            .some((m) => m.code.startsWith("attachment"));
          if (fileRefused)
            await lms.command(endpoint, { ...body, id: randomUUID(), go: undefined }).catch(() => undefined);
        }
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
          <QtiItem
            key={item.ref}
            view={item.view}
            itemRef={item.ref}
            saved={item.response}
            files={item.files}
            number={n + 1}
            readOnly
          >
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
  if (d.confirm) return <Confirm a={a} base={paths.base} commandId={d.commandId} />;
  return <TestPage a={a} base={paths.base} commandId={d.commandId} deadline={d.deadline} />;
}

/** Before submitting: which questions have no answer and which are flagged, named, with and without JS. */
function Confirm({ a, base, commandId }: { a: AssessmentAttempt; base: string; commandId: string }) {
  const { t } = useTranslation();
  const numbered = a.pages.flatMap((p) => p.items).map((i, n) => ({ ...i, n: n + 1 }));
  const unanswered = numbered.filter((i) => !i.answered);
  const flagged = numbered.filter((i) => i.flagged);
  return (
    <main className="qti-page">
      <h1>{t(a.survey ? "assessment.confirmSurvey" : "assessment.confirmTitle")}</h1>
      {unanswered.length > 0 ? (
        <p role="alert">{t("assessment.unanswered", { list: unanswered.map((i) => i.n).join(", ") })}</p>
      ) : (
        <p>{t("assessment.allAnswered")}</p>
      )}
      {flagged.length > 0 ? (
        <p className="qti-confirm__flagged">
          {t("assessment.flaggedList", { list: flagged.map((i) => i.n).join(", ") })}
        </p>
      ) : null}
      {numbered.length > 1 ? (
        <QuestionNavigator pages={a.pages} current={null} base={base} linear={a.navigation === "linear"} />
      ) : null}
      <Form method="post" className="qti-page__actions">
        <input type="hidden" name="intent" value={INTENT.assessmentSubmit} />
        <input type="hidden" name="commandId" value={commandId} />
        <button type="submit" className="button button--primary">
          {t("assessment.submit")}
        </button>{" "}
        <Link to={`${base}?page=${a.current}`}>{t("assessment.backToQuestions")}</Link>
      </Form>
    </main>
  );
}

/** One page of the test: one form (every button saves it); with JavaScript, saved as the learner goes. */
function TestPage({
  a,
  base,
  commandId,
  deadline,
}: {
  a: AssessmentAttempt;
  base: string;
  commandId: string;
  deadline: string | null;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const page = a.page!;
  const [live, setLive] = useState<Record<string, ItemMark>>({});
  const items = page.items;
  const changed = useCallback((f: HTMLFormElement) => setLive(marksOf(f, items)), [items]);
  const { status } = useAutosave("qti-form", `${page.index}/${commandId}`, changed);
  const linear = a.navigation === "linear";
  const last = page.index === a.pages.length - 1;
  const firstNumber = a.pages.slice(0, page.index).reduce((n, p) => n + p.items.length, 0);
  const total = a.pages.reduce((n, p) => n + p.items.length, 0);
  return (
    <main className="qti-page">
      <h1>{a.title}</h1>
      <p className="qti-page__meta">
        {t("assessment.pageOf", { n: page.index + 1, total: a.pages.length })}
        {page.title && page.title !== a.title ? ` · ${page.title}` : null}
        {deadline ? (
          <>
            {" · "}
            <span>{t("assessment.deadline", { time: deadline })}</span>
          </>
        ) : null}
      </p>
      {linear ? <p className="qti-hint">{t("assessment.linear")}</p> : null}
      {total > 1 ? (
        <QuestionNavigator pages={a.pages} current={page.index} base={base} linear={linear} live={live} />
      ) : null}
      <Form
        method="post"
        className="qti-form"
        id="qti-form"
        encType={page.items.some((i) => uploadsOf(i).length > 0) ? "multipart/form-data" : undefined}
      >
        <input type="hidden" name="intent" value={INTENT.assessmentSave} />
        <input type="hidden" name="page" value={page.index} />
        <input type="hidden" name="commandId" value={commandId} />
        {page.items.map((item, n) => (
          <QtiItem
            key={item.ref}
            view={item.view}
            itemRef={item.ref}
            saved={item.response}
            files={item.files}
            number={firstNumber + n + 1}
          >
            <p className="qti-flag">
              <label>
                <input type="checkbox" name="flagged" value={item.ref} defaultChecked={item.flagged ?? false} />{" "}
                {t("assessment.flagQuestion", { n: firstNumber + n + 1 })}
              </label>
            </p>
          </QtiItem>
        ))}
        {hydrated ? <AutosaveStatus status={status} /> : null}
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
