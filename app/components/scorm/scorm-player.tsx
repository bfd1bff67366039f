import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { useTranslation } from "~/common/i18n";
import { useHydrated } from "~/components/use-hydrated";
import type { ScormVersion } from "#domain/scorm";
import { afterSave, navOutcome, navValidity, type LaunchState } from "#domain/scorm-attempt";
import { intervalCentis, sessionCentis, timespanCentis, formatTotalTime } from "#domain/scorm-time";
import type { ScormRuntime } from "#domain/contract/scorm";
import type { ScormBody } from "~/common/views/scorm";
import { readFromLauncher, type LaunchData, type SessionCommit, type ToLauncher } from "./bridge";
import { CommitQueue, type SaveStatus } from "./commit-queue";

/**
 * What the content frame may do (decision 040): run the package's scripts on the content origin
 * (its own, which holds nothing of the learner), submit its own forms, open windows (sandboxed like
 * itself), show dialogs and downloads — never navigate the app's page.
 */
const SANDBOX = "allow-scripts allow-same-origin allow-forms allow-popups allow-modals allow-downloads";

/** How long a player that left the page still takes its SCO's last saves and sends them. */
const AFTER_LEAVING_MS = 10_000;

/** How long the player waits for a SCO taken down to send its last save before the next one starts. */
const UNLOAD_WAIT_MS = 2000;

const parseTotal = (version: ScormVersion, total: string) =>
  (version === "1.2" ? timespanCentis(total) : intervalCentis(total)) ?? 0;

/** The next launch of each SCO as the server described it. */
function initialStates(runtime: ScormRuntime): Record<string, LaunchState> {
  return Object.fromEntries(
    runtime.scos.map((s) => [
      s.id,
      { attempt: s.attempt, entry: s.entry, cmi: s.cmi, totalCentis: parseTotal(runtime.version, s.totalTime) },
    ]),
  );
}

/** Whether a save says the SCO is complete (the table of contents' mark). */
function completedBy(cmi: Record<string, string>): boolean {
  const status = cmi["cmi.completion_status"] ?? cmi["cmi.core.lesson_status"];
  return status !== undefined && ["completed", "passed", "failed"].includes(status);
}

/**
 * A SCORM activity (issue 15, issues 29 and 30, decisions 025 and 040): the package's table of
 * contents, and the running SCO in a sandboxed frame of the content origin — a launcher page there
 * holds the run-time API and the SCO. The player hands each launch its data (entry, attempt, data,
 * total time, the manifest's values) by postMessage, takes the launcher's saves (only from the
 * content origin, only for the launch it made: it decides which SCO and attempt they belong to),
 * queues them to the server with sequence numbers, and follows the SCO's navigation requests.
 * Without JavaScript the package cannot run: the page says so and the rest of the course stays open.
 */
export default function ScormPlayer({ body }: { body: ScormBody }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const runtime = body.runtime;
  const scos = runtime?.scos ?? [];
  const [current, setCurrent] = useState(runtime?.start ?? 0);
  /** A new key relaunches the frame (another SCO, or the same one again: issue 30 item 6). */
  const [launchKey, setLaunchKey] = useState(0);
  /** The learner left the package (exit, suspendAll, time-out…): nothing runs until it is opened again. */
  const [left, setLeft] = useState(false);
  const [status, setStatus] = useState<SaveStatus | null>(null);
  /** The launch whose SCO never connected to the run-time (its page loaded, Initialize never came). */
  const [notStarted, setNotStarted] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  /** SCOs completed on this page since it loaded (the loader's `completed` covers the earlier ones). */
  const [completedHere, setCompletedHere] = useState<string[]>([]);
  const frame = useRef<HTMLIFrameElement | null>(null);
  const queue = useRef<CommitQueue | null>(null);
  const states = useRef<Record<string, LaunchState>>({});
  /** The launches this page made, by their id: which SCO, attempt and position each one is. */
  const launches = useRef(new Map<string, { scoId: string; attempt: number; index: number }>());
  const currentLaunch = useRef<string | null>(null);
  /** The SCO the learner suspended the package at (adl.nav.request suspendAll): where opening it again resumes. */
  const suspendedAt = useRef<string | null>(null);
  /** A switch the learner asked for while a SCO ran: resolved when the launcher took it down. */
  const switching = useRef<{ launchId: string; resolve: () => void } | null>(null);
  // A package finished on this page stays on screen (its own last page shows the learner's result);
  // only its navigation goes, since nothing more can be saved.
  const running = hydrated && runtime !== null && (body.inProgress || done) && body.workflowId !== null;
  const sco = scos[current];
  const contentOrigin = body.contentOrigin;

  // One queue for the activity's lifetime on the page; the SCOs' next launches start as the server said.
  useEffect(() => {
    if (!running || !runtime) return;
    states.current = initialStates(runtime);
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
    for (const [scoId, commit] of Object.entries(q.unsent())) {
      const state = states.current[scoId];
      if (state && commit.attempt === state.attempt && !commit.finish)
        states.current[scoId] = afterSave(runtime.version, state, {
          ...commit,
          finish: false,
          navRequest: "",
          sessionCentis: 0,
        }).next;
    }
    const warn = (event: BeforeUnloadEvent) => {
      if (q.pending > 0) event.preventDefault();
    };
    const leaving = () => q.sendWhileLeaving();
    window.addEventListener("beforeunload", warn);
    window.addEventListener("pagehide", leaving);
    return () => {
      window.removeEventListener("beforeunload", warn);
      window.removeEventListener("pagehide", leaving);
      // Leaving the page within the app takes the frame down: the SCO's last save (its Terminate on
      // unload) arrives after this, so the queue keeps sending for a while (its copy in storage stays).
      setTimeout(() => q.dispose(), AFTER_LEAVING_MS);
    };
    // The queue lives as long as the activity workflow; revalidations do not replace it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [running, runtime?.activityWorkflowId]);

  // The launchers' messages: only from the content origin, only for a launch this page made.
  useEffect(() => {
    if (!running || !runtime) return;
    const version = runtime.version;
    const ids = runtime.scos.map((s) => s.id);
    const launchDataFor = (index: number): LaunchData => {
      const s = runtime.scos[index];
      const state = states.current[s.id];
      return {
        version,
        title: s.title,
        launch: s.launch,
        token: runtime.contentToken,
        asset: s.asset,
        entry: state.entry,
        cmi: state.cmi,
        totalTime: formatTotalTime(version, state.totalCentis),
        learner: runtime.learner,
        launchData: s.launchData,
        masteryScore: s.masteryScore,
        scaledPassingScore: s.scaledPassingScore,
        completionThreshold: s.completionThreshold,
        timeLimit: s.timeLimit,
        timeLimitAction: s.timeLimitAction,
        sharedData: { maps: s.sharedData, stores: runtime.sharedData },
        nav: navValidity(ids, index, runtime.controlMode),
      };
    };
    const onSave = (launchId: string, save: SessionCommit) => {
      const launch = launches.current.get(launchId);
      if (!launch) return;
      const state = states.current[launch.scoId];
      if (!state || state.attempt !== launch.attempt) return; // a save of an attempt that already ended
      const sessionElement = version === "1.2" ? "cmi.core.session_time" : "cmi.session_time";
      const session = save.cmi[sessionElement] ? (sessionCentis(version, save.cmi[sessionElement]) ?? 0) : 0;
      queue.current?.push({
        scoId: launch.scoId,
        attempt: launch.attempt,
        cmi: save.cmi,
        ...(save.finish ? { finish: true, navRequest: save.navRequest } : {}),
        ...(Object.keys(save.shared).length ? { shared: save.shared } : {}),
      });
      for (const [id, store] of Object.entries(save.shared)) runtime.sharedData[id] = store;
      if (completedBy(save.cmi))
        setCompletedHere((done) => (done.includes(launch.scoId) ? done : [...done, launch.scoId]));
      const { next, ending } = afterSave(version, state, { ...save, sessionCentis: session });
      states.current[launch.scoId] = next;
      if (!ending) return;
      if (ending.suspendAll) suspendedAt.current = launch.scoId;
      else if (ending.exitAll || suspendedAt.current === launch.scoId) suspendedAt.current = null;
      if (ending.exitAll)
        // exitAll ends every SCO's attempt: their next launches start new ones.
        for (const s of runtime.scos)
          if (s.id !== launch.scoId && Object.keys(states.current[s.id].cmi).length > 0)
            states.current[s.id] = {
              attempt: states.current[s.id].attempt + 1,
              entry: "ab-initio",
              cmi: {},
              totalCentis: 0,
            };
      if (launchId !== currentLaunch.current || switching.current) return;
      const outcome = ending.exitAll
        ? { kind: "leave" as const }
        : navOutcome(save.navRequest, launch.index, ids, runtime.controlMode);
      setNotStarted(null);
      if (outcome.kind === "leave") setLeft(true);
      else if (outcome.kind === "launch") {
        setCurrent(outcome.index);
        setLaunchKey((k) => k + 1);
      }
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== contentOrigin) return;
      const message = readFromLauncher(event.data);
      if (!message) return;
      if (message.type === "scorm:ready") {
        // The launcher of the frame this page shows asks for its launch: only that window gets one.
        if (!frame.current || event.source !== frame.current.contentWindow || currentLaunch.current) return;
        const index = Number(frame.current.dataset.index);
        const s = runtime.scos[index];
        const launchId = crypto.randomUUID();
        currentLaunch.current = launchId;
        launches.current.set(launchId, { scoId: s.id, attempt: states.current[s.id].attempt, index });
        const launch: ToLauncher = { type: "scorm:launch", launchId, data: launchDataFor(index) };
        frame.current.contentWindow?.postMessage(launch, contentOrigin);
        // An asset cannot report: its launch is what the LMS records (it then counts as completed).
        if (s.asset) onSave(launchId, { cmi: {}, finish: true, navRequest: "", shared: {} });
      } else if (message.type === "scorm:commit") onSave(message.launchId, message.commit);
      else if (message.type === "scorm:notStarted" && message.launchId === currentLaunch.current)
        setNotStarted(message.launchId);
      else if (message.type === "scorm:unloaded" && switching.current?.launchId === message.launchId) {
        switching.current.resolve();
      }
    };
    window.addEventListener("message", onMessage);
    // The saves a SCO sends while its frame is taken down (the learner went to another page) still count.
    return () => void setTimeout(() => window.removeEventListener("message", onMessage), AFTER_LEAVING_MS);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [running, runtime?.activityWorkflowId, contentOrigin]);

  // Each new frame waits for its launcher's "ready" before it gets a launch.
  useEffect(() => {
    currentLaunch.current = null;
  }, [launchKey, current, left]);

  /** The learner opens another SCO: the running one is taken down first (it may still Terminate). */
  const go = async (index: number) => {
    const launchId = currentLaunch.current;
    const target = frame.current?.contentWindow;
    if (launchId && target && !left) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, UNLOAD_WAIT_MS);
        switching.current = {
          launchId,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        target.postMessage({ type: "scorm:unload", launchId } satisfies ToLauncher, contentOrigin);
      });
      switching.current = null;
    }
    setNotStarted(null);
    setLeft(false);
    setCurrent(index);
    setLaunchKey((k) => k + 1);
  };

  /** Opening the package again after leaving it: where it was suspended, else the first SCO not done. */
  const reopen = () => {
    const resumeAt = scos.findIndex((s) => s.id === suspendedAt.current);
    const firstOpen = scos.findIndex((s) => !s.completed && !completedHere.includes(s.id));
    void go(resumeAt >= 0 ? resumeAt : Math.max(0, firstOpen));
  };

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
                    aria-current={i === current && !left ? "step" : undefined}
                    onClick={() => void go(i)}
                  >
                    {s.title}
                  </button>
                ) : (
                  <span aria-current={i === current && !left ? "step" : undefined}>{s.title}</span>
                )}
                {s.completed || completedHere.includes(s.id) ? (
                  <span className="scorm__done"> ✓ {t("scorm.completed")}</span>
                ) : null}
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      {running && sco && !left ? (
        <>
          <iframe
            key={`${launchKey}:${current}`}
            ref={frame}
            data-index={current}
            className="scorm__frame"
            title={sco.title}
            src={`${contentOrigin}/runtime/launcher.html`}
            sandbox={SANDBOX}
            allow="fullscreen; autoplay"
            referrerPolicy="no-referrer"
          />
          {flow && scos.length > 1 ? (
            <p className="scorm__flow">
              <button type="button" className="button" disabled={current === 0} onClick={() => void go(current - 1)}>
                {t("scorm.previous")}
              </button>{" "}
              <button
                type="button"
                className="button"
                disabled={current === scos.length - 1}
                onClick={() => void go(current + 1)}
              >
                {t("scorm.next")}
              </button>
            </p>
          ) : null}
        </>
      ) : null}
      {running && notStarted && !left ? (
        <p role="alert" className="notice">
          {t("scorm.notStarted")}
        </p>
      ) : null}
      {running && left && !done ? (
        <p className="notice">
          {t("scorm.left")}{" "}
          <button type="button" className="button" onClick={reopen}>
            {t("scorm.reopen")}
          </button>
        </p>
      ) : null}
      <p role="status" className="scorm__status" data-status={status ?? ""}>
        {done ? t("scorm.finished") : status ? t(`scorm.status.${status}`) : ""}
      </p>
      {runtime && !body.inProgress && !done ? <p>{t("scorm.finished")}</p> : null}
    </div>
  );
}
