import { Suspense, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { useTranslation } from "~/common/i18n";
import FeedbackForm from "./feedback-form";

/**
 * The product-feedback popover (spec 2.11): a modal dialog (focus moves in, Escape closes it, focus
 * returns to the trigger) holding the feedback form. Loaded only when the learner opens it.
 */
export default function FeedbackDialog({ returnTo, onClose }: { returnTo: string; onClose: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const [commandId] = useState(() => crypto.randomUUID());
  const location = useLocation();
  const openedAt = useRef(location.key);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  // Sent: the action redirected back to this page with the thanks toast; the dialog's work is done.
  useEffect(() => {
    if (location.key !== openedAt.current) onClose();
  }, [location.key, onClose]);
  return (
    <dialog ref={ref} className="feedback-dialog" aria-labelledby="feedback-dialog-title" onClose={onClose}>
      <div className="feedback-dialog__head">
        <h2 id="feedback-dialog-title">{t("feedback.title")}</h2>
        <button type="button" className="button" onClick={() => ref.current?.close()}>
          {t("feedback.close")}
        </button>
      </div>
      <Suspense fallback={null}>
        <FeedbackForm commandId={commandId} returnTo={returnTo} inPopover />
      </Suspense>
    </dialog>
  );
}
