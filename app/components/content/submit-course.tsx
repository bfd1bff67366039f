/** "Submit the course" (spec 2.6, 4.5): the button, and its confirmation as a dialog (JavaScript) or a page state (`?confirm=submit`). */
import { useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { INTENT } from "~/common/forms/intents";
import { useTranslation } from "~/common/i18n";
import { useHydrated } from "../use-hydrated";

export function SubmitDialog({
  workflowId,
  onCancel,
  titleId,
}: {
  workflowId: string;
  onCancel?: () => void;
  titleId: string;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === INTENT.submit;
  return (
    <div className="confirm">
      <h2 id={titleId}>{t("course.submitConfirmTitle")}</h2>
      <p>{t("course.submitConfirmText")}</p>
      <Form method="post" className="confirm__actions">
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
export function SubmitCourse({ workflowId }: { workflowId: string }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const hydrated = useHydrated();
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
      <dialog ref={dialog} aria-labelledby="confirm-dialog-title" className="dialog">
        <SubmitDialog workflowId={workflowId} titleId="confirm-dialog-title" onCancel={() => dialog.current?.close()} />
      </dialog>
    </div>
  );
}
