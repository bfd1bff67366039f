/**
 * The launcher: the content origin's page that holds the SCORM run-time API and runs one SCO in its
 * frame (issue 29 item 1, decision 040). It is built on its own (vite.content.config.ts) and served
 * by the content origin at /runtime/launcher.html, never by the app. It accepts messages only from
 * the app's page that frames it (origin and window checked), receives one launch, loads the API with
 * it, opens the SCO from the package (same origin as this page, so the SCO finds `API`/`API_1484_11`
 * in its parent), and posts the SCO's saves back to the app. Whatever the SCO does, this page can
 * only ask the app to save this launch's data: no cookie, no session, nothing of the app here.
 */
import { readToLauncher, type FromLauncher, type ToLauncher } from "./bridge";
import { createRuntime, type RuntimeHandle } from "./runtime-adapter";

/** Unsaved changes are sent at most this often (a SCO that never commits still loses at most this much). */
const AUTOSAVE_MS = 1000;
/**
 * How long a SCO's page may take, once loaded, to call Initialize before the learner is told it did not
 * start (a script it needs blocked by the content origin's policy, or one that failed).
 */
const NOT_STARTED_MS = 10_000;

const appOrigin = document.querySelector<HTMLMetaElement>('meta[name="app-origin"]')?.content ?? "";
const frame = document.getElementById("sco") as HTMLIFrameElement;
let launch: { id: string; runtime: RuntimeHandle | null } | null = null;

const post = (message: FromLauncher) => window.parent.postMessage(message, appOrigin);

async function start(message: Extract<ToLauncher, { type: "scorm:launch" }>) {
  if (launch) return; // one launch per launcher: the app opens a new launcher for the next SCO
  const id = message.launchId;
  const data = message.data;
  launch = { id, runtime: null };
  if (!data.asset) {
    const runtime = await createRuntime(data, (commit) => post({ type: "scorm:commit", launchId: id, commit }));
    launch.runtime = runtime;
    (window as unknown as Record<string, unknown>)[runtime.global] = runtime.api;
    setInterval(() => runtime.flush(), AUTOSAVE_MS);
    window.addEventListener("pagehide", () => runtime.flush());
  }
  const runtime = launch.runtime;
  if (runtime)
    frame.addEventListener(
      "load",
      () =>
        setTimeout(() => {
          if (launch?.id === id && !runtime.initialized && !runtime.terminated)
            post({ type: "scorm:notStarted", launchId: id });
        }, NOT_STARTED_MS),
      { once: true },
    );
  frame.title = data.title;
  // The package's files are this origin's /scorm/{grant}/…; the launch path is the manifest's, relative to it.
  frame.src = /^[a-z][a-z0-9+.-]*:/i.test(data.launch)
    ? data.launch
    : `/scorm/${encodeURIComponent(data.token)}/${data.launch.replace(/^\/+/, "")}`;
}

/** Takes the SCO down (its unload handlers may still Terminate), then says so. */
function unload(launchId: string) {
  if (!launch || launch.id !== launchId) return;
  const runtime = launch.runtime;
  frame.addEventListener(
    "load",
    () => {
      runtime?.flush();
      post({ type: "scorm:unloaded", launchId });
    },
    { once: true },
  );
  frame.src = "about:blank";
}

window.addEventListener("message", (event) => {
  if (event.origin !== appOrigin || event.source !== window.parent) return;
  const message = readToLauncher(event.data);
  if (message?.type === "scorm:launch") void start(message);
  else if (message?.type === "scorm:unload") unload(message.launchId);
});
post({ type: "scorm:ready" });
