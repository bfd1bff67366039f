import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

export const TOAST_DURATION_MS = 7000;

type Toast = { type: "success" | "info" | "critical"; key: string; values?: Record<string, string | number>; text?: string };

/** Spec 9: toasts last 7000 ms (with JavaScript); without it they stay on the page they arrived with. */
export function Toasts({ toast }: { toast: Toast | null }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState<Toast | null>(toast);
  useEffect(() => {
    setVisible(toast);
    if (!toast) return;
    const timer = setTimeout(() => setVisible(null), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  return (
    <div className="toasts" aria-live="polite" aria-label={t("toast.region")} role="region">
      {visible ? (
        <div className={`toast toast--${visible.type}`} role={visible.type === "critical" ? "alert" : "status"}>
          <span>{visible.text ?? t(visible.key, visible.values)}</span>
          <button type="button" className="toast__close" aria-label={t("toast.dismiss")} onClick={() => setVisible(null)}>
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}
