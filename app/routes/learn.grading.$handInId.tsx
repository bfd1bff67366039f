import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { useTranslation } from "~/common/i18n";
import { gradingItemHandle } from "~/common/views/grading";
import type { Route } from "./+types/learn.grading.$handInId";
import { endpoints } from "#domain/contract/endpoints";
import { isUuid } from "#domain/contract/common";
import { attachmentAccept, DEFAULT_ATTACHMENT_RULES } from "#domain/chat-attachments";
import { formatFileSize } from "#domain/courses";
import type { HandInFile } from "#domain/contract/hand-ins";
import { state } from "~/services/request.server";
import { dateFormatter } from "~/services/format.server";
import { getLocale } from "~/services/i18n.server";
import { LmsError } from "~/services/lms.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { redirectWithToast } from "~/services/toast.server";
import { commandErrorToast } from "~/services/command-errors.server";
import { formError } from "~/common/forms/errors";
import { INTENT, INTENT_FIELD } from "~/common/forms/intents";
import { chosenFiles } from "~/common/forms/chat";
import { FieldErrors } from "~/components/field-errors";

const FILES = "files";

export const handle = gradingItemHandle;

const notFound = () => data("not-found", { status: 404 });

/**
 * /learn/grading/{handInId} (decision 048): one hand-in as its grader sees it — the text, the files (PDF
 * and images in the browser's viewer), earlier attempts — and the grading form: score, comment, a
 * feedback file; "Save draft" keeps it from the learner, "Release" gives it to her. A second grader who
 * saved in between makes the save a conflict that shows what is now stored. Not a grader: 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  if (!isUuid(params.handInId)) throw notFound();
  const s = state(context);
  const shell = await s.requireLearner();
  const item = await (await s.lms()).get(endpoints.gradingHandIn(params.handInId)).catch((err: unknown) => {
    if (err instanceof LmsError && [400, 403, 404].includes(err.status)) throw notFound();
    throw err;
  });
  const fmt = dateFormatter(getLocale(context), shell.user.timezone);
  return {
    item,
    dates: {
      submitted: fmt.dateTime(item.submittedAt),
      due: fmt.dateTime(item.due),
      released: fmt.dateTime(item.releasedAt),
      events: item.events.map((e) => fmt.dateTime(e.at)),
      earlier: item.earlier.map((e) => fmt.dateTime(e.submittedAt)),
    },
    commandId: crypto.randomUUID(),
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  if (!isUuid(params.handInId)) throw notFound();
  const handInId = params.handInId;
  const s = state(context);
  await s.requireLearner();
  const lms = await s.lms();
  // Only a grader's form is read (its feedback file too).
  await lms.get(endpoints.gradingHandIn(handInId)).catch((err: unknown) => {
    if (err instanceof LmsError && [400, 403, 404].includes(err.status)) throw notFound();
    throw err;
  });
  const back = `/learn/grading/${handInId}`;
  const form = await readForm(request);
  const commandId = String(form.get("commandId") ?? "");
  if (!isUuid(commandId)) badRequest();
  const intent = intentOf(form);
  try {
    if (intent === INTENT.gradeApprove) {
      await lms.command(endpoints.approveHandIns, { id: commandId, handInId });
      return redirectWithToast(back, { type: "success", key: "grading.approved" }, s.config);
    }
    if (intent !== INTENT.gradeSave && intent !== INTENT.gradeRelease) badRequest();
    const fields = {
      score: String(form.get("score") ?? ""),
      comment: String(form.get("comment") ?? ""),
    };
    const upload = new FormData();
    upload.set("id", commandId);
    upload.set("handInId", handInId);
    upload.set("version", String(form.get("version") ?? ""));
    upload.set("score", fields.score);
    upload.set("comment", fields.comment);
    upload.set("release", intent === INTENT.gradeRelease ? "true" : "false");
    for (const f of chosenFiles(form.getAll(FILES)).slice(0, 1)) upload.append(FILES, f, f.name);
    try {
      await lms.command(endpoints.gradeHandIns, upload);
    } catch (err) {
      if (err instanceof LmsError && (err.status === 400 || err.status === 413 || err.status === 409)) {
        const fieldErrors: Record<string, string[]> = {};
        for (const [field, list] of Object.entries(err.messages)) {
          const into = field === "score" || field === "comment" || field === FILES ? field : "";
          (fieldErrors[into] ??= []).push(...list.map((m) => formError(m.code, m.params)));
        }
        return data({ fieldErrors, ...fields }, { status: err.status });
      }
      throw err;
    }
    return redirectWithToast(
      intent === INTENT.gradeRelease ? "/learn/grading" : back,
      { type: "success", key: intent === INTENT.gradeRelease ? "grading.released" : "grading.saved" },
      s.config,
    );
  } catch (err) {
    if (!(err instanceof LmsError)) throw err;
    if (err.status === 404) throw notFound();
    return redirectWithToast(back, commandErrorToast(err), s.config);
  }
}

function Files({ files }: { files: HandInFile[] }) {
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
          {f.type.startsWith("image/") ? (
            <img className="hand-in__preview" src={`/learn/hand-in-files/${f.id}`} alt={f.name} loading="lazy" />
          ) : null}
        </li>
      ))}
    </ul>
  );
}

const paragraphs = (text: string) => text.split(/\n{2,}/).map((p, i) => <p key={i}>{p}</p>);

export default function GradingPage() {
  const { item, dates, commandId } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as
    { fieldErrors: Record<string, string[]>; score: string; comment: string } | undefined;
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation();
  const conflict = result?.fieldErrors[""]?.some((e) => e.startsWith("gradingConflict")) ?? false;
  return (
    <div className="grading grading--one">
      <p className="hand-in__back">
        <Link to="/learn/grading">{t("grading.backToQueue")}</Link>
      </p>
      <h1>{t("grading.itemTitle", { learner: item.learner.name, activity: item.activity.name })}</h1>
      <p className="hand-in__meta">{item.objective.name}</p>
      <p className="hand-in__meta">
        {t("handIn.submittedOn", { date: dates.submitted ?? "" })}
        {item.late ? <strong className="hand-in__late"> {t("handIn.late")}</strong> : null}
        {dates.due ? ` · ${t("handIn.due", { date: dates.due })}` : ""}
        {" · "}
        {t(`handIn.state.${item.state}`)}
      </p>
      <section aria-labelledby="grading-work">
        <h2 id="grading-work">{t("grading.work")}</h2>
        {item.body ? (
          <div className="hand-in__text" dir="auto">
            {paragraphs(item.body)}
          </div>
        ) : null}
        <Files files={item.files} />
      </section>

      {item.mayGrade ? (
        <Form
          key={commandId}
          method="post"
          encType="multipart/form-data"
          className="hand-in__form"
          aria-labelledby="grading-form"
        >
          <h2 id="grading-form">{t("grading.grade")}</h2>
          <input type="hidden" name="commandId" value={commandId} />
          <input type="hidden" name="version" value={item.version} />
          <FieldErrors errors={result?.fieldErrors[""]} className="field-errors notice" />
          {conflict ? (
            <p className="notice" role="alert">
              {t("grading.conflictNow", { score: item.score ?? "–", grader: item.grader ?? "–" })}
            </p>
          ) : null}
          <div className="hand-in__field">
            <label htmlFor="grading-score">
              {item.activity.maxScore !== null
                ? t("grading.scoreOf", { max: item.activity.maxScore })
                : t("grading.score")}
            </label>
            <input
              id="grading-score"
              name="score"
              inputMode="decimal"
              defaultValue={result && !conflict ? result.score : (item.score ?? "")}
              key={`score-${item.version}`}
              aria-invalid={result?.fieldErrors.score?.length ? true : undefined}
            />
            <FieldErrors errors={result?.fieldErrors.score} />
          </div>
          <div className="hand-in__field">
            <label htmlFor="grading-comment">{t("grading.comment")}</label>
            <textarea
              id="grading-comment"
              name="comment"
              rows={8}
              dir="auto"
              defaultValue={result ? result.comment : item.comment}
              key={`comment-${item.version}`}
            />
            <FieldErrors errors={result?.fieldErrors.comment} />
          </div>
          {item.feedbackFiles.length > 0 ? <Files files={item.feedbackFiles} /> : null}
          <div className="hand-in__field">
            <label htmlFor="grading-file">{t("grading.feedbackFile")}</label>
            <input
              id="grading-file"
              type="file"
              name={FILES}
              accept={attachmentAccept(DEFAULT_ATTACHMENT_RULES.kinds)}
            />
            <FieldErrors errors={result?.fieldErrors[FILES]} />
          </div>
          <p className="hand-in__meta">{t("grading.releaseHint")}</p>
          <div className="hand-in__actions">
            <button type="submit" name={INTENT_FIELD} value={INTENT.gradeSave} className="button" disabled={busy}>
              {t("grading.saveDraft")}
            </button>
            <button
              type="submit"
              name={INTENT_FIELD}
              value={INTENT.gradeRelease}
              className="button button--primary"
              disabled={busy}
            >
              {t("grading.release")}
            </button>
          </div>
        </Form>
      ) : (
        <section aria-labelledby="grading-released">
          <h2 id="grading-released">{t("grading.grade")}</h2>
          <p>
            {item.activity.maxScore !== null
              ? t("handIn.scoreOf", { score: item.score ?? "–", max: item.activity.maxScore })
              : t("handIn.score", { score: item.score ?? "–" })}
          </p>
          {item.comment ? <blockquote dir="auto">{paragraphs(item.comment)}</blockquote> : null}
          <Files files={item.feedbackFiles} />
          {dates.released ? <p className="hand-in__meta">{t("handIn.releasedOn", { date: dates.released })}</p> : null}
          {item.approvalRequired && item.approvedAt ? <p className="hand-in__meta">{t("grading.isApproved")}</p> : null}
          {item.mayApprove ? (
            <Form method="post">
              <input type="hidden" name={INTENT_FIELD} value={INTENT.gradeApprove} />
              <input type="hidden" name="commandId" value={commandId} />
              <button type="submit" className="button button--primary" disabled={busy}>
                {t("grading.approve")}
              </button>
            </Form>
          ) : null}
        </section>
      )}

      {item.earlier.length > 0 ? (
        <section aria-labelledby="grading-earlier">
          <h2 id="grading-earlier">{t("handIn.earlier")}</h2>
          {item.earlier.map((e, i) => (
            <article key={e.id} className="hand-in__attempt">
              <p className="hand-in__meta">{t("handIn.submittedOn", { date: dates.earlier[i] ?? "" })}</p>
              {e.body ? (
                <div className="hand-in__text" dir="auto">
                  {paragraphs(e.body)}
                </div>
              ) : null}
              <Files files={e.files} />
              {e.feedback ? (
                <p>
                  {e.feedback.maxScore !== null
                    ? t("handIn.scoreOf", { score: e.feedback.score ?? "–", max: e.feedback.maxScore })
                    : t("handIn.score", { score: e.feedback.score ?? "–" })}
                </p>
              ) : null}
            </article>
          ))}
        </section>
      ) : null}

      {item.events.length > 0 ? (
        <section aria-labelledby="grading-history">
          <h2 id="grading-history">{t("grading.history")}</h2>
          <ol className="grading__history">
            {item.events.map((e, i) => (
              <li key={i}>
                {t(`grading.event.${e.action}`, {
                  who: e.actor ?? "–",
                  date: dates.events[i] ?? "",
                  before: e.before.score ?? "–",
                  after: e.after.score ?? "–",
                })}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </div>
  );
}
