import { Form, Link, useNavigation } from "react-router";
import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useTranslation } from "~/i18n/lite";
import type { TutorExchange } from "#domain/contract/tutor";
import { TUTOR_QUESTION_MAX } from "#domain/tutor";
import { askTutorFormSchema } from "~/forms/tutor";
import { INTENT } from "~/forms/intents";
import { parseSubmission } from "~/forms/parse";
import { FieldErrors } from "./field-errors";

export interface TutorProps {
  objectiveId: string;
  exchanges: TutorExchange[];
  commandId: string;
  lastResult?: SubmissionResult<string[]> | null;
}

/**
 * The course's AI tutor (issue 16 items 4–6): the conversation, each answer quoting the course with links
 * to the activities it cites, and a form (post → the page with the answer; the same with JavaScript).
 */
export default function Tutor({ objectiveId, exchanges, commandId, lastResult }: TutorProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `tutor-${commandId}`,
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseSubmission(formData, askTutorFormSchema),
  });
  const asking = navigation.state === "submitting" && navigation.formData?.get("intent") === INTENT.askTutor;
  return (
    <div className="tutor">
      {exchanges.length === 0 ? <p className="empty-state">{t("tutor.intro")}</p> : null}
      <ol className="tutor__log">
        {exchanges.map((e) => (
          <li key={e.id} id={`exchange-${e.id}`} className="tutor__exchange">
            <p className="tutor__question">
              <strong>{t("tutor.you")}</strong> {e.question}
            </p>
            <div className="tutor__answer">
              <strong>{t("tutor.tutor")}</strong>
              {e.passages.length === 0 ? (
                <p>{t("tutor.nothingFound")}</p>
              ) : (
                <>
                  {e.answeredBy === "model" ? (
                    <p style={{ whiteSpace: "pre-wrap" }}>{e.answer}</p>
                  ) : (
                    <p>{t(e.answeredBy === "fallback" ? "tutor.modelFailed" : "tutor.fromCourse")}</p>
                  )}
                  {(e.answeredBy === "model" ? [] : e.passages).map((p, i) => (
                    <blockquote
                      key={i}
                      cite={`/learn/courses/${objectiveId}/view/content?activityPathId=${p.activityPathId}`}
                    >
                      <p>{p.text}</p>
                    </blockquote>
                  ))}
                  <p>
                    {t("tutor.sources")}{" "}
                    {e.citations.map((c, i) => (
                      <span key={c.activityPathId}>
                        {i > 0 ? ", " : null}
                        <Link to={`/learn/courses/${objectiveId}/view/content?activityPathId=${c.activityPathId}`}>
                          {c.name}
                        </Link>
                      </span>
                    ))}
                  </p>
                </>
              )}
            </div>
          </li>
        ))}
      </ol>
      <Form method="post" className="tutor__form" preventScrollReset {...getFormProps(form)}>
        <input type="hidden" name="intent" value={INTENT.askTutor} />
        <input type="hidden" name="id" value={commandId} />
        <label htmlFor={fields.question.id}>{t("tutor.questionLabel")}</label>
        <textarea
          {...getTextareaProps(fields.question, { ariaAttributes: true })}
          key={fields.question.key}
          rows={3}
          maxLength={TUTOR_QUESTION_MAX}
          required
        />
        <FieldErrors id={fields.question.errorId} errors={fields.question.errors} />
        <FieldErrors id={form.errorId} errors={form.errors} />
        <button type="submit" className="button button--primary" disabled={asking}>
          {asking ? t("tutor.asking") : t("tutor.ask")}
        </button>
      </Form>
    </div>
  );
}
