import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { useTranslation } from "~/common/i18n";
import { useHydrated } from "~/components/use-hydrated";
import { isKeptCmiElement, type ScormVersion } from "#domain/scorm";
import type { ScormBody } from "~/common/views/scorm";
import { CommitQueue, type SaveStatus } from "./commit-queue";

type RuntimeApi = {
  on(event: string, callback: (...args: string[]) => void): void;
  loadFromFlattenedJSON(json: Record<string, string>): void;
  getFlattenedCMI(): Record<string, unknown>;
};

/** The element that tells a SCO it is resumed, per version. */
const ENTRY: Record<ScormVersion, [exit: string, entry: string]> = {
  "1.2": ["cmi.core.exit", "cmi.core.entry"],
  "2004": ["cmi.exit", "cmi.entry"],
};

/** The kept elements of the runtime's data: the ones the server stores (the same rule, domain/scorm.ts). */
function keptData(version: ScormVersion, flat: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [element, value] of Object.entries(flat)) {
    if (typeof value !== "string" || !isKeptCmiElement(version, element)) continue;
    if (value === "" && element !== ENTRY[version][0]) continue;
    out[element] = value;
  }
  return out;
}

/** Where a 2004 navigation request leads from SCO `current` (null: stay). */
function target(request: string, current: number, ids: string[]): number | null {
  if (request === "continue") return current + 1 < ids.length ? current + 1 : null;
  if (request === "previous") return current > 0 ? current - 1 : null;
  const choice = /^\{target=([^}]+)\}(choice|jump)$/.exec(request);
  if (choice) {
    const i = ids.indexOf(choice[1]);
    return i >= 0 ? i : null;
  }
  return null;
}

/**
 * A SCORM activity (issue 15 items 2–5, decision 025): the package's table of contents, the SCO in a
 * same-origin frame with the SCORM API of its version (scorm-again, loaded with this component only),
 * each commit queued to the server with its sequence number, and what is saved said aloud. Without
 * JavaScript the package cannot run: the page says so and the rest of the course stays open.
 */
export default function ScormPlayer({ body }: { body: ScormBody }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const runtime = body.runtime;
  const scos = runtime?.scos ?? [];
  const firstOpen = Math.max(
    0,
    scos.findIndex((s) => !s.completed),
  );
  const [current, setCurrent] = useState(firstOpen);
  const [ready, setReady] = useState<string | null>(null);
  const [status, setStatus] = useState<SaveStatus | null>(null);
  const [done, setDone] = useState(false);
  /** SCOs completed on this page since it loaded (the loader's `completed` covers the earlier ones). */
  const [completedHere, setCompletedHere] = useState<string[]>([]);
  const saved = useRef<Record<string, Record<string, string>>>({});
  const queue = useRef<CommitQueue | null>(null);
  // A package finished on this page stays on screen (its own last page shows the learner's result);
  // only its navigation goes, since nothing more can be saved.
  const running = hydrated && runtime !== null && (body.inProgress || done) && body.workflowId !== null;
  const sco = scos[current];

  // One queue for the activity's lifetime on the page.
  useEffect(() => {
    if (!running || !runtime) return;
    const q = new CommitQueue(
      `/learn/scorm-runtime/${body.workflowId}/${runtime.activityWorkflowId}`,
      Object.fromEntries(runtime.scos.map((s) => [s.id, s.sequence])),
      setStatus,
      () => {
        setDone(true);
        void revalidator.revalidate();
      },
      `learn:scorm-queue:${runtime.activityWorkflowId}`,
    );
    queue.current = q;
    // What a previous visit kept but could not send is newer than what the server gave the page.
    for (const [scoId, cmi] of Object.entries(q.unsent())) saved.current[scoId] ??= cmi;
    const warn = (event: BeforeUnloadEvent) => {
      if (q.pending > 0) event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => {
      window.removeEventListener("beforeunload", warn);
      q.dispose();
    };
    // The queue lives as long as the activity workflow; revalidations do not replace it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [running, runtime?.activityWorkflowId]);

  // A fresh API object for each SCO launched, loaded with what the learner left there.
  useEffect(() => {
    if (!running || !runtime || !sco) return;
    let disposed = false;
    const version = runtime.version;
    const global = version === "1.2" ? "API" : "API_1484_11";
    const ids = runtime.scos.map((s) => s.id);
    void (async () => {
      const settings = { lmsCommitUrl: false as const, autocommit: false, logLevel: 5 as const };
      // The packages' ES builds export the classes by name (their types declare a default export).
      type Runtime = new (settings: object) => RuntimeApi;
      const api =
        version === "1.2"
          ? new ((await import("scorm-again/scorm12")) as unknown as { Scorm12API: Runtime }).Scorm12API(settings)
          : new ((await import("scorm-again/scorm2004")) as unknown as { Scorm2004API: Runtime }).Scorm2004API(
              settings,
            );
      if (disposed) return;
      const left = saved.current[sco.id] ?? sco.cmi;
      const [exit, entry] = ENTRY[version];
      api.loadFromFlattenedJSON({
        ...left,
        ...(left[exit] === "suspend" ? { [entry]: "resume" } : {}),
      });
      let navRequest = "";
      const commit = (finish: boolean) => {
        const kept = keptData(version, api.getFlattenedCMI());
        saved.current[sco.id] = kept;
        queue.current?.push(sco.id, kept, finish);
        const status = kept["cmi.completion_status"] ?? kept["cmi.core.lesson_status"];
        if (status && ["completed", "passed", "failed"].includes(status))
          setCompletedHere((ids) => (ids.includes(sco.id) ? ids : [...ids, sco.id]));
      };
      api.on(version === "1.2" ? "LMSCommit" : "Commit", () => commit(false));
      api.on(version === "1.2" ? "LMSFinish" : "Terminate", () => {
        commit(true);
        const next = target(navRequest, current, ids);
        if (next !== null) setCurrent(next);
      });
      if (version === "2004") api.on("SetValue.adl.nav.request", (_element, value) => (navRequest = value));
      (window as unknown as Record<string, unknown>)[global] = api;
      setReady(sco.id);
    })();
    return () => {
      disposed = true;
      setReady(null);
      delete (window as unknown as Record<string, unknown>)[global];
    };
    // Keyed by the SCO launched, not by the loader's objects: a revalidation must not replace the API
    // object a running SCO holds.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [running, runtime?.activityWorkflowId, sco?.id, current]);

  const choice = runtime?.controlMode.choice !== false && !done;
  const flow = runtime?.controlMode.flow !== false && !done;
  return (
    <div className="scorm">
      {/* Only a browser without scripting shows it: with JavaScript it never flashes before the player runs. */}
      <noscript>
        <p className="notice" data-testid="scorm-no-js">
          {t("scorm.noJs")}
        </p>
      </noscript>
      {!runtime ? <p className="activity-panel__meta">{t("scorm.start")}</p> : null}
      {runtime && scos.length > 1 ? (
        <nav aria-label={t("scorm.contents")} className="scorm__toc">
          <ol>
            {scos.map((s, i) => (
              <li key={s.id} style={{ paddingInlineStart: `${s.depth}rem` }}>
                {running && choice ? (
                  <button
                    type="button"
                    className="link-button"
                    aria-current={i === current ? "step" : undefined}
                    onClick={() => setCurrent(i)}
                  >
                    {s.title}
                  </button>
                ) : (
                  <span aria-current={i === current ? "step" : undefined}>{s.title}</span>
                )}
                {s.completed || completedHere.includes(s.id) ? (
                  <span className="scorm__done"> ✓ {t("scorm.completed")}</span>
                ) : null}
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      {running && sco ? (
        <>
          {ready === sco.id ? (
            <iframe
              key={sco.id}
              className="scorm__frame"
              title={sco.title}
              src={`/learn/scorm/${runtime.activityId}/${sco.launch}`}
            />
          ) : (
            <p className="notice">{t("scorm.loading")}</p>
          )}
          {flow && scos.length > 1 ? (
            <p className="scorm__flow">
              <button type="button" className="button" disabled={current === 0} onClick={() => setCurrent(current - 1)}>
                {t("scorm.previous")}
              </button>{" "}
              <button
                type="button"
                className="button"
                disabled={current === scos.length - 1}
                onClick={() => setCurrent(current + 1)}
              >
                {t("scorm.next")}
              </button>
            </p>
          ) : null}
        </>
      ) : null}
      <p role="status" className="scorm__status" data-status={status ?? ""}>
        {done ? t("scorm.finished") : status ? t(`scorm.status.${status}`) : ""}
      </p>
      {runtime && !body.inProgress && !done ? <p>{t("scorm.finished")}</p> : null}
    </div>
  );
}
