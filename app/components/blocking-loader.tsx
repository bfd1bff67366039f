import { useEffect, useState } from "react";
import { useNavigation } from "react-router";
import { useTranslation } from "~/common/i18n";

/** Spec 9: the blocking loader appears only when a command waits longer than this. */
const BLOCKING_LOADER_DEBOUNCE_MS = 300;
/** Spec 9: the loading overlay fades in and out over this (the CSS transition of `.blocking-loader`). */
const OVERLAY_TRANSITION_MS = 200;

/**
 * Spec 9: while a command (a form post) waits for the server, a blocking overlay after 300 ms, fading
 * in over 200 ms; quick commands never flash it. With JavaScript only — without it the browser's own
 * page load is the indicator.
 */
export function BlockingLoader() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" ? navigation.formData : null;
  const [shownFor, setShownFor] = useState<FormData | null>(null);
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => setShownFor(pending), BLOCKING_LOADER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [pending]);
  const shown = pending !== null && shownFor === pending;
  return (
    <div
      className="blocking-loader"
      data-shown={shown}
      aria-hidden={!shown}
      style={{ transitionDuration: `${OVERLAY_TRANSITION_MS}ms` }}
    >
      <div className="blocking-loader__spinner" />
      <p role="status" className="visually-hidden">
        {shown ? t("app.loading") : ""}
      </p>
    </div>
  );
}
