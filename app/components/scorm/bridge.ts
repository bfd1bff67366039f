/**
 * The messages between the SCORM player (the app's page) and the launcher on the content origin
 * (issue 29 item 1, decision 040). The launcher holds the run-time API the SCO calls; it can only ask
 * the app to save the data of the launch it was given. The player checks each message's origin and
 * launch id, and decides by itself which SCO and attempt a commit belongs to: whatever a package's
 * scripts post here, they change nothing but that launch's own CMI data.
 */
import type { ScormSharedDataMap, ScormVersion } from "#domain/scorm";
import type { NavValidity } from "#domain/scorm-attempt";

/** What a launch of one SCO starts with (the launcher loads it into the run-time API before the SCO starts). */
export interface LaunchData {
  version: ScormVersion;
  /** The SCO's title (its frame's accessible name). */
  title: string;
  /** Path of the SCO's launch file under the package (its query and fragment included). */
  launch: string;
  /** The grant the content origin serves the package's files under. */
  token: string;
  /** An asset is launched without the run-time API. */
  asset: boolean;
  entry: "ab-initio" | "resume" | "";
  cmi: Record<string, string>;
  totalTime: string;
  learner: { id: string; name: string };
  launchData: string | null;
  masteryScore: number | null;
  scaledPassingScore: number | null;
  completionThreshold: number | null;
  /** Seconds. */
  timeLimit: number | null;
  timeLimitAction: string | null;
  sharedData: { maps: ScormSharedDataMap[]; stores: Record<string, string> };
  nav: NavValidity;
}

/** One save of the SCO's data, as the launcher sends it (the player adds SCO, attempt and sequence). */
export interface SessionCommit {
  cmi: Record<string, string>;
  finish: boolean;
  /** The last adl.nav.request (2004) when the session finished. */
  navRequest: string;
  /** adl.data stores the SCO wrote. */
  shared: Record<string, string>;
}

/** App → launcher. */
export type ToLauncher =
  | { type: "scorm:launch"; launchId: string; data: LaunchData }
  /** Take the SCO down (its unload may still Terminate), then answer `scorm:unloaded`. */
  | { type: "scorm:unload"; launchId: string };

/** Launcher → app. */
export type FromLauncher =
  | { type: "scorm:ready" }
  | { type: "scorm:commit"; launchId: string; commit: SessionCommit }
  | { type: "scorm:unloaded"; launchId: string }
  /** The SCO's page loaded but never called Initialize (a script it needs was blocked or failed). */
  | { type: "scorm:notStarted"; launchId: string };

const isStringRecord = (v: unknown, maxEntries: number): v is Record<string, string> =>
  typeof v === "object" &&
  v !== null &&
  !Array.isArray(v) &&
  Object.keys(v).length <= maxEntries &&
  Object.values(v).every((x) => typeof x === "string" && x.length <= 256 * 1024);

/**
 * A launcher's message, read defensively: anything else (another shape, huge data) is null. Everything
 * in it is still checked again by the server, element by element.
 */
export function readFromLauncher(data: unknown): FromLauncher | null {
  if (typeof data !== "object" || data === null) return null;
  const m = data as Record<string, unknown>;
  if (m.type === "scorm:ready") return { type: "scorm:ready" };
  if (typeof m.launchId !== "string" || m.launchId.length > 64) return null;
  if (m.type === "scorm:unloaded") return { type: "scorm:unloaded", launchId: m.launchId };
  if (m.type === "scorm:notStarted") return { type: "scorm:notStarted", launchId: m.launchId };
  if (m.type !== "scorm:commit" || typeof m.commit !== "object" || m.commit === null) return null;
  const c = m.commit as Record<string, unknown>;
  if (!isStringRecord(c.cmi, 5000) || !isStringRecord(c.shared, 1000)) return null;
  if (typeof c.finish !== "boolean" || typeof c.navRequest !== "string" || c.navRequest.length > 4100) return null;
  return {
    type: "scorm:commit",
    launchId: m.launchId,
    commit: { cmi: c.cmi, finish: c.finish, navRequest: c.navRequest, shared: c.shared },
  };
}

/** The app's message, read by the launcher. */
export function readToLauncher(data: unknown): ToLauncher | null {
  if (typeof data !== "object" || data === null) return null;
  const m = data as Record<string, unknown>;
  if (typeof m.launchId !== "string") return null;
  if (m.type === "scorm:unload") return { type: "scorm:unload", launchId: m.launchId };
  if (m.type === "scorm:launch" && typeof m.data === "object" && m.data !== null)
    return { type: "scorm:launch", launchId: m.launchId, data: m.data as LaunchData };
  return null;
}
