import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { useState } from "react";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.courses.$id.hand-in.$partId";
import { HandInDropZone } from "~/components/hand-in-upload";
import { loadHandIn, saveHandInForm } from "~/services/hand-ins.server";
import { HAND_IN_FILES } from "~/common/constants";
import { endpoints } from "#domain/contract/endpoints";
import { isUuid } from "#domain/contract/common";
import { attachmentAccept, attachmentTypesText } from "#domain/chat-attachments";
import { formatFileSize } from "#domain/courses";
import { isLate } from "#domain/hand-ins";
import type { HandInFile, HandInSummary, LearnerHandIn } from "#domain/contract/hand-ins";
import { state } from "~/services/request.server";
import { requireCourseId } from "~/services/course-id.server";
import { dateFormatter } from "~/services/format.server";
import { getLocale } from "~/services/i18n.server";
import { LmsError } from "~/services/lms.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { redirectWithToast } from "~/services/toast.server";
import { commandErrorToast } from "~/services/command-errors.server";
import { INTENT, INTENT_FIELD } from "~/common/forms/intents";
import { FieldErrors } from "~/components/field-errors";

const FILES = HAND_IN_FILES;

interface Dates {
  due: string | null;
  submitted: string | null;
  released: string | null;
  earlier: Record<string, { submitted: string | null; released: string | null }>;
}

export const handle = {
  title: (d: { view?: LearnerHandIn } | undefined, t: (k: string) => string) =>
    d?.view ? `${d.view.activityName} | ${t("handIn.title")}` : t("handIn.title"),
  breadcrumb: (d: { view?: LearnerHandIn } | undefined, t: (k: string) => string) =>
    d?.view
      ? [
          { label: t("menu.courses"), href: "/learn/courses" },
          { label: d.view.objectiveName, href: `/learn/courses/${d.view.objectiveId}` },
          { label: d.view.activityName },
        ]
      : [],
};

const notFound = () => data("course-unavailable", { status: 404 });

/**
 * /learn/courses/{id}/hand-in/{partId} (decision 048): an assignment's hand-in — the learner writes her
 * text and adds files (one multipart form, with or without JavaScript), saves a draft, confirms what she
 * hands in, and reads the released grade and comment. Not her course, or an activity that takes no
 * hand-in: 404.
 */
export async function loader({ params, context, url }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  if (!isUuid(params.partId)) throw notFound();
  const s = state(context);
  const shell = await s.requireLearner();
  const view = await loadHandIn(await s.lms(), id, params.partId);
  const fmt = dateFormatter(getLocale(context), shell.user.timezone);
  const dates: Dates = {
    due: fmt.dateTime(view.due),
    submitted: fmt.dateTime(view.handIn?.submittedAt),
    released: fmt.dateTime(view.handIn?.feedback?.releasedAt),
    earlier: Object.fromEntries(
      view.earlier.map((e) => [
        e.id,
        { submitted: fmt.dateTime(e.submittedAt), released: fmt.dateTime(e.feedback?.releasedAt) },
      ]),
    ),
  };
  const confirming = url.searchParams.get("confirm") === "1" && view.maySubmit && view.handIn !== null;
  return {
    view,
    dates,
    pastDue: isLate(view.due, new Date()),
    confirming,
    sizeText: formatFileSize(view.rules.maxBytes),
    commandId: crypto.randomUUID(),
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const id = requireCourseId(params.id);
  if (!isUuid(params.partId)) throw notFound();
  const partId = params.partId;
  const s = state(context);
  await s.requireLearner();
  const lms = await s.lms();
  // Who may post here is known before the form — and its files — is read.
  const view = await loadHandIn(lms, id, partId);
  const back = `/learn/courses/${id}/hand-in/${partId}`;
  const form = await readForm(request);
  const commandId = String(form.get("commandId") ?? "");
  if (!isUuid(commandId)) badRequest();
  const target = { id: commandId, objectiveId: id, activityPartId: partId };
  try {
    switch (intentOf(form)) {
      case INTENT.handInSave:
      case INTENT.handInReview: {
        const saved = await saveHandInForm(lms, target, form);
        // The text comes back as typed; files are chosen again (a file input cannot be filled).
        if (!saved.ok) return data({ fieldErrors: saved.fieldErrors, body: saved.body }, { status: saved.status });
        if (intentOf(form) === INTENT.handInReview) return redirect(`${back}?confirm=1#confirm`);
        return redirectWithToast(back, { type: "success", key: "handIn.saved" }, s.config);
      }
      case INTENT.handInSubmit: {
        if (!view.maySubmit) badRequest();
        await lms.command(endpoints.submitHandIns, target);
        return redirectWithToast(back, { type: "success", key: "handIn.submittedToast" }, s.config);
      }
      case INTENT.handInWithdraw: {
        await lms.command(endpoints.withdrawHandIns, target);
        return redirectWithToast(back, { type: "success", key: "handIn.withdrawn" }, s.config);
      }
      default:
        badRequest();
    }
  } catch (err) {
    if (!(err instanceof LmsError)) throw err;
    if (err.status === 404) throw notFound();
    return redirectWithToast(back, commandErrorToast(err), s.config);
  }
}

function FileList({ files, removable }: { files: HandInFile[]; removable?: boolean }) {
  const { t } = useTranslation();
  if (files.length === 0) return null;
  return (
    <ul className="hand-in__files">
      {files.map((f) => (
        <li key={f.id}>
          <a
            href={`/learn/hand-in-files/${f.id}`}
            {...(f.viewable ? { target: "_blank", rel: "noopener" } : { download: f.name })}
          >
            {f.name}
          </a>{" "}
          <span className="hand-in__size">({formatFileSize(f.size)})</span>
          {removable ? (
            <label className="hand-in__remove">
              <input type="checkbox" name="remove" value={f.id} /> {t("handIn.removeFile")}
            </label>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function Feedback({ handIn, released }: { handIn: HandInSummary; released: string | null }) {
  const { t } = useTranslation();
  const f = handIn.feedback;
  if (!f) return null;
  return (
    <section className="hand-in__feedback" aria-labelledby={`feedback-${handIn.id}`}>
      <h3 id={`feedback-${handIn.id}`}>{t("handIn.feedbackTitle")}</h3>
      {f.score !== null ? (
        <p className="hand-in__score">
          {f.maxScore !== null
            ? t("handIn.scoreOf", { score: f.score, max: f.maxScore })
            : t("handIn.score", { score: f.score })}
        </p>
      ) : null}
      {f.comment ? (
        <blockquote className="hand-in__comment" dir="auto">
          {f.comment.split(/\n{2,}/).map((p, i) => (
            <p key={i}>{p}</p>
          ))}
        </blockquote>
      ) : null}
      <FileList files={f.files} />
      {released ? <p className="hand-in__meta">{t("handIn.releasedOn", { date: released })}</p> : null}
    </section>
  );
}

function Paragraphs({ text }: { text: string }) {
  return (
    <div className="hand-in__text" dir="auto">
      {text.split(/\n{2,}/).map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </div>
  );
}

function TextBox({ initial, max, errors }: { initial: string; max: number; errors?: string[] }) {
  const { t } = useTranslation();
  const [count, setCount] = useState(initial.length);
  return (
    <div className="hand-in__field">
      <label htmlFor="hand-in-text">{t("handIn.textLabel")}</label>
      <textarea
        id="hand-in-text"
        name="body"
        rows={12}
        maxLength={max}
        defaultValue={initial}
        dir="auto"
        onChange={(e) => setCount(e.currentTarget.value.length)}
        aria-describedby="hand-in-count"
        aria-invalid={errors?.length ? true : undefined}
      />
      <p id="hand-in-count" className="hand-in__meta" aria-live="polite">
        {t("handIn.characters", { chars: count, max })}
      </p>
      <FieldErrors errors={errors} />
    </div>
  );
}

export default function HandInPage() {
  const { view, dates, pastDue, confirming, sizeText, commandId } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as { fieldErrors: Record<string, string[]>; body: string } | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { t } = useTranslation();
  const h = view.handIn;
  const handedIn = h !== null && h.state !== "draft";
  return (
    <div className="hand-in">
      <p className="hand-in__back">
        <Link to={`/learn/courses/${view.objectiveId}`}>
          {t("handIn.backToCourse", { course: view.objectiveName })}
        </Link>
      </p>
      <h1>{view.activityName}</h1>
      {dates.due ? (
        <p className="hand-in__meta">
          {t("handIn.due", { date: dates.due })}
          {pastDue && !handedIn ? (
            <strong className="hand-in__late">
              {" "}
              {view.rules.allowLate ? t("handIn.pastDueLate") : t("handIn.pastDueRefused")}
            </strong>
          ) : null}
        </p>
      ) : null}
      {view.maxScore !== null ? <p className="hand-in__meta">{t("handIn.maxScore", { max: view.maxScore })}</p> : null}

      {handedIn ? (
        <section className="hand-in__submitted" aria-labelledby="hand-in-submitted">
          <h2 id="hand-in-submitted">{t("handIn.yourHandIn")}</h2>
          <p className="hand-in__status" role="status">
            {t("handIn.submittedOn", { date: dates.submitted ?? "" })}
            {h.late ? <strong className="hand-in__late"> {t("handIn.late")}</strong> : null}
            {" · "}
            {t(`handIn.state.${h.state}`)}
          </p>
          {h.body ? <Paragraphs text={h.body} /> : null}
          <FileList files={h.files} />
          {view.mayWithdraw ? (
            <Form method="post">
              <input type="hidden" name={INTENT_FIELD} value={INTENT.handInWithdraw} />
              <input type="hidden" name="commandId" value={commandId} />
              <button type="submit" className="button" disabled={busy}>
                {t("handIn.withdraw")}
              </button>
            </Form>
          ) : null}
          <Feedback handIn={h} released={dates.released} />
        </section>
      ) : null}

      {confirming && h ? (
        <section id="confirm" className="hand-in__confirm notice" aria-labelledby="hand-in-confirm">
          <h2 id="hand-in-confirm">{t("handIn.confirmTitle")}</h2>
          <ul>
            {h.body.trim() ? <li>{t("handIn.confirmText", { chars: h.body.length })}</li> : null}
            {h.files.map((f) => (
              <li key={f.id}>{t("handIn.confirmFile", { name: f.name })}</li>
            ))}
          </ul>
          {pastDue ? <p className="hand-in__late">{t("handIn.pastDueLate")}</p> : null}
          <Form method="post" className="hand-in__actions">
            <input type="hidden" name={INTENT_FIELD} value={INTENT.handInSubmit} />
            <input type="hidden" name="commandId" value={commandId} />
            <button type="submit" className="button button--primary" disabled={busy}>
              {t("handIn.submitNow")}
            </button>
            <Link to={`/learn/courses/${view.objectiveId}/hand-in/${view.activityPartId}`}>
              {t("handIn.backToEditing")}
            </Link>
          </Form>
        </section>
      ) : view.mayEdit ? (
        // Keyed by the page view: after a save the file input starts empty (its files are stored now).
        <Form key={commandId} method="post" encType="multipart/form-data" className="hand-in__form">
          <input type="hidden" name="commandId" value={commandId} />
          <FieldErrors errors={result?.fieldErrors[""]} />
          {view.rules.text ? (
            <TextBox
              key={result ? "typed" : (h?.body ?? "")}
              initial={result?.body ?? h?.body ?? ""}
              max={view.rules.textMax}
              errors={result?.fieldErrors.body}
            />
          ) : null}
          {view.rules.files ? (
            <div className="hand-in__field">
              {h && h.files.length > 0 ? (
                <fieldset>
                  <legend>{t("handIn.filesKept")}</legend>
                  <FileList files={h.files} removable />
                </fieldset>
              ) : null}
              <HandInDropZone
                inputId="hand-in-files"
                uploadUrl={`/learn/courses/${view.objectiveId}/hand-in/${view.activityPartId}/upload`}
                maxBytes={view.rules.maxBytes}
                types={view.rules.types}
                sizeText={sizeText}
                typesText={attachmentTypesText(view.rules.types)}
              >
                <label htmlFor="hand-in-files">{t("handIn.addFiles")}</label>
                <input
                  id="hand-in-files"
                  type="file"
                  name={FILES}
                  multiple
                  accept={attachmentAccept(view.rules.types)}
                  aria-describedby="hand-in-files-hint"
                />
                <p id="hand-in-files-hint" className="hand-in__meta">
                  {t("handIn.filesHint", {
                    max: view.rules.maxCount,
                    size: sizeText,
                    types: attachmentTypesText(view.rules.types),
                  })}
                </p>
              </HandInDropZone>
              <FieldErrors errors={result?.fieldErrors[FILES]} />
            </div>
          ) : null}
          <div className="hand-in__actions">
            <button type="submit" name={INTENT_FIELD} value={INTENT.handInSave} className="button" disabled={busy}>
              {t("handIn.saveDraft")}
            </button>
            {view.maySubmit && !(pastDue && !view.rules.allowLate) ? (
              <button
                type="submit"
                name={INTENT_FIELD}
                value={INTENT.handInReview}
                className="button button--primary"
                disabled={busy}
              >
                {t("handIn.review")}
              </button>
            ) : null}
          </div>
        </Form>
      ) : !handedIn ? (
        <p className="notice" role="status">
          {t("handIn.closed")}
        </p>
      ) : null}

      {view.earlier.length > 0 ? (
        <section className="hand-in__earlier" aria-labelledby="hand-in-earlier">
          <h2 id="hand-in-earlier">{t("handIn.earlier")}</h2>
          {view.earlier.map((e) => (
            <article key={e.id} className="hand-in__attempt">
              <p className="hand-in__meta">
                {t("handIn.submittedOn", { date: dates.earlier[e.id]?.submitted ?? "" })}
                {e.late ? <strong className="hand-in__late"> {t("handIn.late")}</strong> : null}
              </p>
              {e.body ? <Paragraphs text={e.body} /> : null}
              <FileList files={e.files} />
              <Feedback handIn={e} released={dates.earlier[e.id]?.released ?? null} />
            </article>
          ))}
        </section>
      ) : null}
    </div>
  );
}
