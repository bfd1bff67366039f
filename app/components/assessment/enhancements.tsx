import { useEffect, useState } from "react";
import { useTranslation } from "~/common/i18n";
import { useHydrated } from "~/components/use-hydrated";

function remaining(deadline: string, now: number) {
  const s = Math.max(0, Math.floor((Date.parse(deadline) - now) / 1000));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * With JavaScript only: the time left before the server's deadline (the autosave warns before leaving with
 * answers not saved yet, decision 057). Without it the page says when the time is up, and every button saves.
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
  if (!hydrated || !deadline) return null;
  const left = remaining(deadline, now);
  return (
    <p className="qti-timer" aria-live={left.endsWith(":00") ? "polite" : "off"}>
      {t("assessment.timeLeft", { time: left })}
    </p>
  );
}
