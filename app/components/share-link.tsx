import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n/lite";
import { useHydrated } from "./use-hydrated";

export const COPIED_RESET_MS = 10_000;

/**
 * Spec 4.3 Share: copies the public link; the 'copied' indicator resets after 10 s; a failure is a
 * critical message. Without JavaScript the link is shown to copy by hand.
 */
export function ShareLink({ url }: { url: string }) {
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
      <summary className="button">{t("course.share")}</summary>
      <div className="share__panel">
        <label htmlFor="share-url">{t("course.shareLabel")}</label>
        <input id="share-url" type="url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        {hydrated ? (
          <button
            type="button"
            className="button"
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(url);
                setState("copied");
              } catch {
                setState("failed");
              }
            }}
          >
            {state === "copied" ? t("course.copied") : t("course.copyLink")}
          </button>
        ) : null}
        <p role="status" className={state === "failed" ? "share__error" : "visually-hidden"}>
          {state === "copied" ? t("course.copied") : state === "failed" ? t("messages.linkNotCopied") : ""}
        </p>
      </div>
    </details>
  );
}
