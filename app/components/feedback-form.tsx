import { Form, useFetcher, useNavigation } from "react-router";
import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useTranslation } from "~/common/i18n";
import { FEEDBACK_DETAILS, FEEDBACK_GRADES } from "#domain/feedback";
import { FEEDBACK_COMMENT_MAX } from "#domain/limits";
import { feedbackSchema } from "~/common/forms/feedback";
import { INTENT } from "~/common/forms/intents";
import { parseSubmission } from "~/common/forms/parse";
import { FieldErrors } from "./field-errors";
import { useTypedBeforeHydration } from "./use-typed-before-hydration";

export interface FeedbackFormProps {
  commandId: string;
  returnTo: string;
  lastResult?: SubmissionResult<string[]> | null;
  /** In the shell's popover the form posts with a fetcher (the page stays); on its page, a plain form. */
  inPopover?: boolean;
}

/**
 * Spec 2.11 product feedback: a grade (1–5), what it is about (the spec's options), a comment. The same
 * form in the popover (with JavaScript) and on /learn/feedback (without).
 */
export default function FeedbackForm({ commandId, returnTo, lastResult, inPopover }: FeedbackFormProps) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const navigation = useNavigation();
  const FormTag = inPopover ? fetcher.Form : Form;
  const result = inPopover ? ((fetcher.data as SubmissionResult<string[]> | undefined) ?? null) : lastResult;
  const [form, fields] = useForm({
    id: `feedback-${commandId}`,
    lastResult: result,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseSubmission(formData, feedbackSchema),
  });
  useTypedBeforeHydration(fields.comment.id);
  const sending = inPopover ? fetcher.state !== "idle" : navigation.state === "submitting";
  return (
    <FormTag
      method="post"
      action={`/learn/feedback?returnTo=${encodeURIComponent(returnTo)}`}
      className="feedback-form"
      {...getFormProps(form)}
    >
      <input type="hidden" name="intent" value={INTENT.feedback} />
      <input type="hidden" name="id" value={commandId} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <fieldset aria-describedby={fields.grade.errors ? fields.grade.errorId : undefined}>
        <legend>{t("feedback.gradeLegend")}</legend>
        <div className="feedback-form__grades">
          {FEEDBACK_GRADES.map((g) => (
            <label key={g}>
              <input type="radio" name={fields.grade.name} value={g} />
              <span>{t("feedback.grade", { grade: g })}</span>
            </label>
          ))}
        </div>
        <FieldErrors id={fields.grade.errorId} errors={fields.grade.errors} />
      </fieldset>
      <fieldset>
        <legend>{t("feedback.detailsLegend")}</legend>
        <div className="feedback-form__details">
          {FEEDBACK_DETAILS.map((d) => (
            <label key={d}>
              <input type="checkbox" name={fields.details.name} value={d} />
              <span>{t(`feedback.details.${d}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <label htmlFor={fields.comment.id}>{t("feedback.commentLabel")}</label>
      <textarea
        {...getTextareaProps(fields.comment, { ariaAttributes: true })}
        key={fields.comment.key}
        rows={4}
        maxLength={FEEDBACK_COMMENT_MAX}
      />
      <FieldErrors id={fields.comment.errorId} errors={fields.comment.errors} />
      <FieldErrors id={form.errorId} errors={form.errors} />
      <button type="submit" className="button button--primary" disabled={sending}>
        {t("feedback.send")}
      </button>
    </FormTag>
  );
}
