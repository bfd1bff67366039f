/**
 * Issue 31 item 3: "Make available offline" on a course page — asks the service worker to keep the
 * course's pages the learner may open now, with their images and PDFs, shows what is kept and how much
 * space it takes, and removes it. Loaded lazily, only once the page runs JavaScript and the browser has
 * a service worker (without either there is nothing to keep anything with): no first-load JavaScript.
 */
import { useEffect, useState } from "react";
import { useTranslation } from "~/common/i18n";
import { formatFileSize } from "#domain/courses";
import type { FromServiceWorker, SavedCourse, ToServiceWorker } from "~/common/offline";

type State =
  | { kind: "loading" }
  | { kind: "unsupported" }
  | { kind: "idle"; removed?: boolean }
  | { kind: "saving"; done: number; total: number }
  | { kind: "saved"; course: SavedCourse }
  | { kind: "error"; reason: Extract<FromServiceWorker, { type: "offline:error" }>["reason"] };

/** One request to the service worker; `onProgress` hears the messages before the answer. */
async function ask(
  message: ToServiceWorker,
  onProgress?: (m: Extract<FromServiceWorker, { type: "offline:progress" }>) => void,
): Promise<FromServiceWorker> {
  const registration = await navigator.serviceWorker.ready;
  const worker = registration.active;
  if (!worker) throw new Error("no active service worker");
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event: MessageEvent<FromServiceWorker>) => {
      if (event.data.type === "offline:progress") onProgress?.(event.data);
      else {
        channel.port1.close();
        resolve(event.data);
      }
    };
    worker.postMessage(message, [channel.port2]);
  });
}

export default function OfflineSave({ courseId }: { courseId: string }) {
  const { t, i18n } = useTranslation();
  // Rendered only after hydration: the browser says at once whether it can keep anything.
  const [state, setState] = useState<State>(() =>
    "serviceWorker" in navigator && "caches" in window ? { kind: "loading" } : { kind: "unsupported" },
  );

  const supported = state.kind !== "unsupported";
  useEffect(() => {
    if (!supported) return;
    let live = true;
    ask({ type: "offline:list" })
      .then((answer) => {
        const course = answer.type === "offline:list" ? answer.courses.find((c) => c.courseId === courseId) : undefined;
        if (live) setState(course ? { kind: "saved", course } : { kind: "idle" });
      })
      .catch(() => live && setState({ kind: "unsupported" }));
    return () => {
      live = false;
    };
  }, [courseId, supported]);

  const save = async () => {
    setState({ kind: "saving", done: 0, total: 0 });
    // Ask the browser to keep the copies through storage pressure (it may say no: they are kept anyway).
    void navigator.storage?.persist?.().catch(() => false);
    const answer = await ask({ type: "offline:save", courseId }, (p) =>
      setState({ kind: "saving", done: p.done, total: p.total }),
    ).catch(() => ({ type: "offline:error", reason: "network" }) as const);
    if (answer.type === "offline:saved") setState({ kind: "saved", course: answer.course });
    else if (answer.type === "offline:error") setState({ kind: "error", reason: answer.reason });
  };

  const remove = async () => {
    await ask({ type: "offline:remove", courseId });
    setState({ kind: "idle", removed: true });
  };

  if (state.kind === "loading" || state.kind === "unsupported") return null;
  const date = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
  return (
    <section className="offline-save" aria-labelledby="offline-save-title">
      <h2 id="offline-save-title" className="offline-save__title">
        {t("offline.sectionTitle")}
      </h2>
      {state.kind === "saved" ? (
        <>
          <p className="offline-save__state">
            {t("offline.savedOn", { date: date(state.course.savedAt), size: formatFileSize(state.course.bytes) })}
          </p>
          <div className="offline-save__actions">
            <button type="button" className="button" onClick={() => void save()}>
              {t("offline.update")}
            </button>
            <button type="button" className="button" onClick={() => void remove()}>
              {t("offline.remove")}
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="offline-save__hint">{t("offline.saveHint")}</p>
          <button
            type="button"
            className="button"
            disabled={state.kind === "saving"}
            aria-describedby="offline-save-status"
            onClick={() => void save()}
          >
            {t("offline.save")}
          </button>
        </>
      )}
      <p id="offline-save-status" className="offline-save__status" role="status">
        {state.kind === "saving"
          ? t("offline.saving", { done: state.done, total: state.total || "…" })
          : state.kind === "idle" && state.removed
            ? t("offline.removed")
            : ""}
      </p>
      {state.kind === "error" ? (
        <p className="notice notice--critical" role="alert">
          {t(`offline.errors.${state.reason}`)}
        </p>
      ) : null}
    </section>
  );
}
