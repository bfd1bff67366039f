import { useEffect, useState } from "react";
import { useTranslation } from "~/common/i18n";

/** Spec 3 supportFullscreenView: the activity panel in full screen and back (the Fullscreen API needs JavaScript). */
export default function FullscreenToggle({ target }: { target: React.RefObject<HTMLElement | null> }) {
  const { t } = useTranslation();
  const [on, setOn] = useState(false);
  useEffect(() => {
    const sync = () => setOn(document.fullscreenElement !== null && document.fullscreenElement === target.current);
    document.addEventListener("fullscreenchange", sync);
    return () => document.removeEventListener("fullscreenchange", sync);
  }, [target]);
  if (typeof document !== "undefined" && !document.fullscreenEnabled) return null;
  return (
    <button
      type="button"
      className="button fullscreen-toggle"
      aria-pressed={on}
      onClick={() => {
        if (document.fullscreenElement) void document.exitFullscreen();
        else void target.current?.requestFullscreen();
      }}
    >
      {on ? t("finish.exitFullscreen") : t("finish.fullscreen")}
    </button>
  );
}
