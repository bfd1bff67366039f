import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n/lite";

export const TOAST_DURATION_MS = 7000;

type Toast = {
  type: "success" | "info" | "critical";
  key: string;
  values?: Record<string, string | number>;
  text?: string;
};

/** Spec 9: toasts last 7000 ms (with JavaScript); without it they stay on the page they arrived with. */
export function Toasts({ toasts }: { toasts: Toast[] }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState<Toast[]>(toasts);
  const [arrived, setArrived] = useState(toasts);
  if (arrived !== toasts) {
    // New toasts came with a navigation: show them (and only them).
    setArrived(toasts);
    setVisible(toasts);
  }
  useEffect(() => {
    if (toasts.length === 0) return;
    const timer = setTimeout(() => setVisible([]), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toasts]);
  return (
    <div className="toasts" aria-live="polite" aria-label={t("toast.region")} role="region">
      {visible.map((toast, i) => (
        <div
          key={`${toast.key}-${i}`}
          className={`toast toast--${toast.type}`}
          role={toast.type === "critical" ? "alert" : "status"}
        >
          <span>{toast.text ?? t(toast.key, toast.values)}</span>
          <button
            type="button"
            className="toast__close"
            aria-label={t("toast.dismiss")}
            onClick={() => setVisible((v) => v.filter((x) => x !== toast))}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
