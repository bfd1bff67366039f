import { useEffect, useState } from "react";
import { useTranslation } from "~/common/i18n";
import { useHydrated } from "~/components/use-hydrated";

function remaining(deadline: string, now: number) {
  const s = Math.max(0, Math.floor((Date.parse(deadline) - now) / 1000));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * With JavaScript only: the time left before the server's deadline, and a warning before leaving the page
 * with answers not saved yet. Without it the page says when the time is up, and every button saves.
 */
export function AssessmentEnhancements({ deadline }: { deadline: string | null }) {
  const hydrated = useHydrated();
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!deadline) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  useEffect(() => {
    const form = document.getElementById("qti-form");
    if (!form) return;
    let dirty = false;
    const changed = () => (dirty = true);
    const submitted = () => (dirty = false);
    const leaving = (e: BeforeUnloadEvent) => {
      if (dirty) e.preventDefault();
    };
    form.addEventListener("input", changed);
    form.addEventListener("change", changed);
    form.addEventListener("submit", submitted);
    window.addEventListener("beforeunload", leaving);
    return () => {
      form.removeEventListener("input", changed);
      form.removeEventListener("change", changed);
      form.removeEventListener("submit", submitted);
      window.removeEventListener("beforeunload", leaving);
    };
  }, []);
  if (!hydrated || !deadline) return null;
  const left = remaining(deadline, now);
  return (
    <p className="qti-timer" aria-live={left.endsWith(":00") ? "polite" : "off"}>
      {t("assessment.timeLeft", { time: left })}
    </p>
  );
}
