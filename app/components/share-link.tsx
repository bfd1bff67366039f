import { useEffect, useState } from "react";
import { useTranslation } from "~/common/i18n";
import { useHydrated } from "./use-hydrated";
import { showToast } from "./toasts";
import { reportProblem } from "./analytics";

export const COPIED_RESET_MS = 10_000;

/**
 * Spec 4.3 Share: copies the public link; the 'copied' indicator resets after 10 s; a failure is a
 * critical message. Without JavaScript the link is shown to copy by hand.
 */
export function ShareLink({
  url,
  labels = { share: "course.share", field: "course.shareLabel" },
  id = "share-url",
}: {
  url: string;
  /** Translation keys of the button and the field (a course's by default). */
  labels?: { share: string; field: string };
  id?: string;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const hydrated = useHydrated();
  useEffect(() => {
    if (state !== "copied") return;
    const timer = setTimeout(() => setState("idle"), COPIED_RESET_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <details className="share">
      <summary className="button">{t(labels.share)}</summary>
      <div className="share__panel">
        <label htmlFor={id}>{t(labels.field)}</label>
        <input id={id} type="url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        {hydrated ? (
          <button
            type="button"
            className="button"
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(url);
                setState("copied");
              } catch (err) {
                setState("failed");
                // Spec 8: a critical toast, and the failure is reported to the error reporting.
                showToast({ type: "critical", key: "messages.linkNotCopied" });
                reportProblem("The link could not be copied", err);
              }
            }}
          >
            {state === "copied" ? t("course.copied") : t("course.copyLink")}
          </button>
        ) : null}
        {/* The failure is the critical toast in the page's notifications (spec 8); this says the copy worked. */}
        <p role="status" className="visually-hidden">
          {state === "copied" ? t("course.copied") : ""}
        </p>
      </div>
    </details>
  );
}
