/**
 * Attempts and navigation of a SCORM package's SCOs: how a learner session
 * ends (SCORM 2004 RTE 4.2.10 cmi.exit with SN's navigation requests; 1.2 RTE 3.4.2.1.x cmi.core.exit),
 * what the next launch says in cmi.entry and whether it starts a new attempt, which navigation requests
 * are valid from a SCO, and where one leads. Pure rules: the server stores what they decide, the
 * player follows them.
 */
import type { ScormVersion } from "./scorm";

/** Where a SCO's attempt stands between sessions: never terminated, suspended, or ended. */
export type ScoSessionState = "open" | "suspended" | "ended";

export interface SessionEnding {
  state: Exclude<ScoSessionState, "open">;
  /** The whole package's attempt ends too (exitAll, abandonAll, cmi.exit time-out or logout). */
  exitAll: boolean;
  /** adl.nav.request suspendAll: the package is suspended at this SCO (the next visit resumes it). */
  suspendAll: boolean;
}

/** How a session that the SCO terminated ends, from its cmi.exit and its last adl.nav.request. */
export function sessionEnding(version: ScormVersion, exit: string, navRequest: string): SessionEnding {
  if (version === "1.2")
    return { state: exit === "suspend" ? "suspended" : "ended", exitAll: false, suspendAll: false };
  if (navRequest === "suspendAll") return { state: "suspended", exitAll: false, suspendAll: true };
  // RTE 4.2.10: time-out and (deprecated) logout end the attempt on the whole activity tree.
  const exitAll = navRequest === "exitAll" || navRequest === "abandonAll" || exit === "time-out" || exit === "logout";
  if (exitAll) return { state: "ended", exitAll, suspendAll: false };
  return { state: exit === "suspend" ? "suspended" : "ended", exitAll: false, suspendAll: false };
}

/**
 * SCORM 1.2 RTE 3.4.2.1.4 (cmi.core.lesson_status): a SCO that ends its session (LMSFinish) without
 * having set its status is judged by the LMS — "completed", or with a mastery score and a raw score,
 * "passed" or "failed" by that score. A suspended session is not finished, so it is left as it is.
 * Returns the data to store.
 */
export function statusAtFinish(
  cmi: Record<string, string>,
  masteryScore: number | null,
  exit: string,
): Record<string, string> {
  const status = cmi["cmi.core.lesson_status"];
  if (exit === "suspend" || (status !== undefined && status !== "" && status !== "not attempted")) return cmi;
  const raw = cmi["cmi.core.score.raw"];
  const score = raw === undefined || raw === "" ? null : Number(raw);
  const judged =
    masteryScore !== null && score !== null && Number.isFinite(score)
      ? score >= masteryScore
        ? "passed"
        : "failed"
      : "completed";
  return { ...cmi, "cmi.core.lesson_status": judged };
}

/** What a SCO's next launch starts with. */
export interface LaunchEntry {
  /** cmi.entry (2004) / cmi.core.entry (1.2). */
  entry: "ab-initio" | "resume" | "";
  /** A new attempt: nothing of the previous one comes back (no data, no total time). */
  fresh: boolean;
}

/**
 * The entry of a SCO's next launch from where its attempt stands (null: never launched). 2004: an
 * ended attempt (exit normal, "", time-out, logout) makes the next launch a new attempt; 1.2 knows no
 * attempts, so its data always comes back. A session that was never terminated continues its attempt.
 */
export function launchEntry(
  version: ScormVersion,
  previous: { state: ScoSessionState; exit: string } | null,
): LaunchEntry {
  if (!previous) return { entry: "ab-initio", fresh: true };
  const suspended = previous.state === "suspended" || (previous.state === "open" && previous.exit === "suspend");
  if (suspended) return { entry: "resume", fresh: false };
  if (version === "2004" && previous.state === "ended") return { entry: "ab-initio", fresh: true };
  return { entry: "", fresh: false };
}

export interface ControlMode {
  choice: boolean;
  flow: boolean;
}

/** adl.nav.request_valid.* for the SCO at `index` of the package's launchable items (SN 4.x, the implemented subset). */
export interface NavValidity {
  continue: "true" | "false";
  previous: "true" | "false";
  /** By target: "{target=ID}" → "true" | "false". */
  choice: Record<string, "true" | "false">;
  jump: Record<string, "true" | "false">;
}

export function navValidity(ids: string[], index: number, control: ControlMode): NavValidity {
  const bool = (b: boolean) => (b ? "true" : "false") as "true" | "false";
  return {
    continue: bool(control.flow && index + 1 < ids.length),
    previous: bool(control.flow && index > 0),
    choice: Object.fromEntries(ids.map((id) => [`{target=${id}}`, bool(control.choice)])),
    jump: Object.fromEntries(ids.map((id) => [`{target=${id}}`, "true" as const])),
  };
}

/** Where a navigation request made at Terminate leads. */
export type NavOutcome =
  | { kind: "launch"; index: number }
  /** The learner left the package (exit, exitAll, suspendAll…): nothing runs until it is opened again. */
  | { kind: "leave" }
  /** No request (or one that is not valid here): the SCO's frame stays; the learner picks what is next. */
  | { kind: "stay" };

/**
 * The SCO a request launches: continue/previous along the items when flow is allowed, a choice (when
 * allowed) or jump to any item — itself included, which relaunches it (issue 30 item 6).
 */
export function navOutcome(request: string, index: number, ids: string[], control: ControlMode): NavOutcome {
  if (request === "continue")
    return control.flow && index + 1 < ids.length ? { kind: "launch", index: index + 1 } : { kind: "stay" };
  if (request === "previous")
    return control.flow && index > 0 ? { kind: "launch", index: index - 1 } : { kind: "stay" };
  const target = /^\{target=([^}]+)\}(choice|jump)$/.exec(request);
  if (target) {
    const i = ids.indexOf(target[1]);
    if (i < 0 || (target[2] === "choice" && !control.choice)) return { kind: "stay" };
    return { kind: "launch", index: i };
  }
  if (["exit", "exitAll", "abandon", "abandonAll", "suspendAll"].includes(request)) return { kind: "leave" };
  return { kind: "stay" };
}

/** What a SCO's next launch on the page starts from, kept by the player between launches. */
export interface LaunchState {
  attempt: number;
  entry: LaunchEntry["entry"];
  cmi: Record<string, string>;
  /** The attempt's total time so far, in centiseconds. */
  totalCentis: number;
}

/**
 * The next launch after one save of the SCO (the same rules the server applies to it, so a SCO
 * relaunched on the page — even offline — starts as it will after a reload): a finished session is
 * suspended or ended by its cmi.exit and navigation request; an ended 2004 attempt starts the next
 * one empty; a session's time is added to the attempt's total.
 */
export function afterSave(
  version: ScormVersion,
  state: LaunchState,
  save: { cmi: Record<string, string>; finish: boolean; navRequest: string; sessionCentis: number },
): { next: LaunchState; ending: SessionEnding | null } {
  const exit = (version === "1.2" ? save.cmi["cmi.core.exit"] : save.cmi["cmi.exit"]) ?? "";
  const { "cmi.session_time": _s, "cmi.core.session_time": _c, ...kept } = save.cmi;
  if (!save.finish) {
    const entry = launchEntry(version, { state: "open", exit });
    return { next: { ...state, entry: entry.entry, cmi: kept }, ending: null };
  }
  const ending = sessionEnding(version, exit, save.navRequest);
  const entry = launchEntry(version, { state: ending.state, exit });
  const next: LaunchState = entry.fresh
    ? { attempt: state.attempt + 1, entry: entry.entry, cmi: {}, totalCentis: 0 }
    : { attempt: state.attempt, entry: entry.entry, cmi: kept, totalCentis: state.totalCentis + save.sessionCentis };
  return { next, ending };
}
