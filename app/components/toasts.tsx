import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/common/i18n";

const TOAST_DURATION_MS = 7000;

/** The browser event a component raises for a toast of its own (a failure no server answer carries). */
const CLIENT_TOAST_EVENT = "learn:toast";

/** Shows a toast from the browser (spec 9: 7000 ms, like the server's). */
export function showToast(toast: Toast): void {
  window.dispatchEvent(new CustomEvent<Toast>(CLIENT_TOAST_EVENT, { detail: toast }));
}

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
  // Toasts raised in the browser (showToast): each leaves after its own 7000 ms.
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    const onToast = (event: Event) => {
      const toast = (event as CustomEvent<Toast>).detail;
      setVisible((v) => [...v, toast]);
      const timer = setTimeout(() => {
        pending.delete(timer);
        setVisible((v) => v.filter((x) => x !== toast));
      }, TOAST_DURATION_MS);
      pending.add(timer);
    };
    window.addEventListener(CLIENT_TOAST_EVENT, onToast);
    return () => {
      window.removeEventListener(CLIENT_TOAST_EVENT, onToast);
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
  }, []);
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
