/** "Submit the course" (spec 2.6, 4.5): the button, and its confirmation as a dialog (JavaScript) or a page state (`?confirm=submit`). */
import { useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { INTENT } from "~/common/forms/intents";
import { useTranslation } from "~/common/i18n";
import type { Unfinished } from "#domain/submit-readiness";
import type { SubmitPreview } from "#domain/contract/courses";
import { useHydrated } from "../use-hydrated";

/** At most this many unfinished activities are named; the rest are counted. */
const NAMED = 10;

/** The activities not done yet ("3 of 7"), named, so the learner submits knowingly. */
function UnfinishedList({ unfinished, id }: { unfinished: Unfinished; id: string }) {
  const { t } = useTranslation();
  const { total, activities } = unfinished;
  if (activities.length === 0) return <p id={id}>{t("course.submitAllDone")}</p>;
  const more = activities.length - NAMED;
  return (
    <div id={id} className="confirm__unfinished">
      <p>
        <strong>{t("course.submitUnfinished", { count: activities.length, total })}</strong>
      </p>
      <ul>
        {activities.slice(0, NAMED).map((a) => (
          <li key={a.pathId}>
            {a.name}
            {a.optional ? ` (${t("activity.optional")})` : ""}
          </li>
        ))}
      </ul>
      {more > 0 ? <p>{t("course.submitMore", { count: more })}</p> : null}
    </div>
  );
}

/** Spec 4.5: submitting now would record the course as not passed (the score it would record is known). */
export const wouldFail = (preview: SubmitPreview | null | undefined): preview is SubmitPreview =>
  preview?.passed === false && preview.pending === 0;

export function SubmitDialog({
  workflowId,
  unfinished,
  preview,
  onCancel,
  titleId,
}: {
  workflowId: string;
  unfinished: Unfinished;
  preview?: SubmitPreview | null;
  onCancel?: () => void;
  titleId: string;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === INTENT.submit;
  const failing = wouldFail(preview);
  const formId = `${titleId}-form`;
  return (
    <div className="confirm">
      <h2 id={titleId}>{t("course.submitConfirmTitle")}</h2>
      <UnfinishedList unfinished={unfinished} id={`${titleId}-unfinished`} />
      {failing ? (
        <p className="notice" role="note" id={`${titleId}-fail`}>
          <strong>{t("course.submitWouldFail", { percent: Math.round((preview.normalizedScore ?? 0) * 100) })}</strong>
        </p>
      ) : null}
      <p>{t("course.submitConfirmText")}</p>
      {failing ? (
        // The second yes: the browser asks for it before the form goes (with or without JavaScript), the server too.
        <p className="confirm__accept">
          <input type="checkbox" id={`${formId}-accept`} name="acceptFail" form={formId} required />{" "}
          <label htmlFor={`${formId}-accept`}>{t("course.submitAcceptFail")}</label>
        </p>
      ) : null}
      <Form method="post" className="confirm__actions" id={formId}>
        <input type="hidden" name="intent" value={INTENT.submit} />
        <input type="hidden" name="workflowId" value={workflowId} />
        {onCancel ? (
          <button type="button" className="button" onClick={onCancel}>
            {t("course.cancel")}
          </button>
        ) : (
          <Link className="button" to="?">
            {t("course.cancel")}
          </Link>
        )}
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? t("app.loading") : t("course.submitConfirm")}
        </button>
      </Form>
    </div>
  );
}

/** The button at the end of the activity panel; without JavaScript it links to the confirmation state of the page. */
export function SubmitCourse({
  workflowId,
  unfinished,
  preview,
  lockedBy,
}: {
  workflowId: string;
  unfinished: Unfinished;
  preview?: SubmitPreview | null;
  /** The id of the notice that says why the attempt is locked (a proctored sitting that is over). */
  lockedBy?: string | null;
}) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const hydrated = useHydrated();
  if (lockedBy)
    return (
      <div className="submit-course">
        <button type="button" className="button" disabled aria-describedby={lockedBy}>
          {t("course.submit")}
        </button>
      </div>
    );
  return (
    <div className="submit-course">
      <Link
        className="button"
        to="?confirm=submit"
        onClick={(e) => {
          if (!hydrated || !dialog.current) return;
          e.preventDefault();
          dialog.current.showModal();
        }}
      >
        {t("course.submit")}
      </Link>
      <dialog
        ref={dialog}
        aria-labelledby="confirm-dialog-title"
        aria-describedby="confirm-dialog-title-unfinished confirm-dialog-title-fail"
        className="dialog"
      >
        <SubmitDialog
          workflowId={workflowId}
          unfinished={unfinished}
          preview={preview}
          titleId="confirm-dialog-title"
          onCancel={() => dialog.current?.close()}
        />
      </dialog>
    </div>
  );
}
