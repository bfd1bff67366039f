/**
 * SCORM packages (issue 15, spec 1 "SCORM submission", decision 025): the pure rules both the import
 * (api/scorm/) and the runtime (app/components/scorm/) follow — which zip entry names are safe, how
 * an item's launch URL is made, which manifest schema version is which SCORM version.
 */
import { intervalCentis, timespanCentis } from "./scorm-time";

/** The two SCORM versions a package can declare (SCORM 2004 3rd and 4th edition are both "2004"). */
export type ScormVersion = "1.2" | "2004";

/** An item of a package's organization (a SCO when it launches something, otherwise a cluster). */
export interface ScormItem {
  identifier: string;
  title: string;
  /** Path of the launch file inside the package with the item's parameters; null for a cluster. */
  launch: string | null;
  /** SCORM 1.2 adlcp:masteryscore (0–100) or 2004 imsss:minNormalizedMeasure × 100 when satisfiedByMeasure. */
  masteryScore: number | null;
  /** Seconds: 1.2 adlcp:maxtimeallowed, 2004 imsss:attemptAbsoluteDurationLimit. */
  timeLimit: number | null;
  /** 1.2 adlcp:timelimitaction / 2004 adlcp:timeLimitAction, e.g. "exit,message". */
  timeLimitAction: string | null;
  /** adlcp:datafromlms / adlcp:dataFromLMS (cmi.launch_data). */
  launchData: string | null;
  /**
   * Issue 30 item 4 (2004): adlcp:completionThreshold, 0–1 (4th edition: minProgressMeasure when
   * completedByMeasure is true; 3rd edition: the element's text). Optional: manifests stored before have none.
   */
  completionThreshold?: number | null;
  /** 2004 cmi.scaled_passing_score: the primary objective's minNormalizedMeasure when satisfiedByMeasure (default 1). */
  scaledPassingScore?: number | null;
  /** 2004 adlcp:data: the shared data buckets (adl.data) this SCO may read and write. */
  sharedData?: ScormSharedDataMap[];
  /** adlcp:scormType of the item's resource: an asset is launched without the run-time API. */
  scormType?: "sco" | "asset";
  children: ScormItem[];
}

/** One adlcp:map of an item (SCORM 2004 CAM 3.4.1.x): a shared data bucket by its target id. */
export interface ScormSharedDataMap {
  targetId: string;
  read: boolean;
  write: boolean;
}

export interface ScormManifest {
  version: ScormVersion;
  /** The metadata schemaversion as written ("1.2", "2004 3rd Edition", "2004 4th Edition", "CAM 1.3"…). */
  schemaVersion: string;
  title: string;
  /** The default organization's items (a tree). */
  items: ScormItem[];
  /** 2004 imsss:controlMode of the organization: choice and flow navigation allowed. */
  controlMode: { choice: boolean; flow: boolean };
}

/** The SCOs of a manifest in tree order (the table of contents' launchable entries; flow navigation's order). */
export function scormScos(items: ScormItem[]): ScormItem[] {
  return items.flatMap((i) => [...(i.launch ? [i] : []), ...scormScos(i.children)]);
}

/**
 * A zip entry name that may be extracted: relative, forward slashes, no "." or ".." segments, no drive
 * letters, no control characters (the zip-slip and absolute-path refusals of issue 15 item 1).
 */
export function isSafeEntryName(name: string): boolean {
  if (!name || name.length > 1024) return false;
  if (/[\u0000-\u001f\\]/.test(name)) return false;
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) return false;
  const segments = name.replace(/\/$/, "").split("/");
  return segments.every((s) => s !== "" && s !== "." && s !== "..");
}

/**
 * A resource's href joined with an item's parameters (IMS CP / SCORM CAM 3.4.1.7: parameters starting
 * with "?" or "#" are appended as they are; otherwise "?" or "&" joins them), and the xml:base prefixes.
 */
export function launchUrl(base: string, href: string, parameters: string | null): string {
  const path = /^[a-z][a-z0-9+.-]*:/i.test(href) ? href : joinBase(base, href);
  const p = (parameters ?? "").trim();
  if (!p) return path;
  if (p.startsWith("#")) return path + p;
  const query = p.replace(/^[?&]/, "");
  return path + (path.includes("?") ? "&" : "?") + query;
}

function joinBase(base: string, href: string): string {
  if (!base) return href;
  return base.endsWith("/") ? base + href : `${base}/${href}`;
}

/** The file part of a launch URL (query and fragment dropped), e.g. to check that the package holds it. */
export function launchFile(launch: string): string {
  return decodeURIComponent(launch.replace(/[?#].*$/, ""));
}

/** ISO 8601 duration (SCORM 2004 timeinterval, "PT1H30M") or 1.2 "HHHH:MM:SS.SS" → seconds, null if neither. */
export function durationSeconds(value: string | null | undefined): number | null {
  if (!value) return null;
  const v = value.trim();
  const centis = timespanCentis(v) ?? intervalCentis(v);
  return centis === null ? null : centis / 100;
}

// ---------------------------------------------------------------------------------------------
// Run-time data (SCORM 1.2 RTE 3.4, SCORM 2004 RTE 4.2): the elements a SCO may write and keep
// ---------------------------------------------------------------------------------------------

/** What a rule checks a value against. */
type CmiRule =
  | { kind: "vocab"; values: readonly string[] }
  | { kind: "string"; max: number }
  | { kind: "real"; min?: number; max?: number; empty?: boolean }
  | { kind: "time12" }
  | { kind: "interval" };

const STR = (max: number): CmiRule => ({ kind: "string", max });
const VOCAB = (...values: string[]): CmiRule => ({ kind: "vocab", values });

/**
 * The writable elements kept for resume and reporting, per version ("n" is an array index). The
 * lengths are the server's bounds, not the data model's: a characterstring's SPM is the least an LMS
 * must keep (RTE 4.1.1.2), so an LMS may keep more — authoring tools write 1.2 suspend_data far past
 * its 4,096 (SCORM Cloud keeps 64 KB). Every value is bounded by the commit's own limits too.
 */
const WRITABLE: Record<ScormVersion, [RegExp, CmiRule][]> = {
  "1.2": [
    [/^cmi\.core\.lesson_location$/, STR(4096)],
    [/^cmi\.core\.lesson_status$/, VOCAB("passed", "completed", "failed", "incomplete", "browsed", "not attempted")],
    [/^cmi\.core\.score\.(raw|min|max)$/, { kind: "real", min: 0, max: 100, empty: true }],
    [/^cmi\.core\.exit$/, VOCAB("time-out", "suspend", "logout", "")],
    [/^cmi\.core\.session_time$/, { kind: "time12" }],
    [/^cmi\.suspend_data$/, STR(64_000)],
    [/^cmi\.comments$/, STR(64_000)],
    [/^cmi\.student_preference\.(audio|language|speed|text)$/, STR(255)],
    [/^cmi\.objectives\.\d{1,3}\.(id|status|score\.(raw|min|max))$/, STR(4096)],
    [/^cmi\.interactions\.\d{1,3}\.[a-z_.0-9]+$/, STR(256 * 1024)],
  ],
  "2004": [
    // An empty characterstring is a valid location (RTE 4.2.14; the run-time library refused it, issue 30 item 5).
    [/^cmi\.location$/, STR(4000)],
    [/^cmi\.completion_status$/, VOCAB("completed", "incomplete", "not attempted", "unknown")],
    [/^cmi\.success_status$/, VOCAB("passed", "failed", "unknown")],
    [/^cmi\.score\.scaled$/, { kind: "real", min: -1, max: 1 }],
    [/^cmi\.score\.(raw|min|max)$/, { kind: "real" }],
    [/^cmi\.progress_measure$/, { kind: "real", min: 0, max: 1 }],
    [/^cmi\.exit$/, VOCAB("time-out", "suspend", "logout", "normal", "")],
    [/^cmi\.session_time$/, { kind: "interval" }],
    [/^cmi\.suspend_data$/, STR(64_000)],
    [/^cmi\.learner_preference\.(audio_level|language|delivery_speed|audio_captioning)$/, STR(1000)],
    [/^cmi\.objectives\.\d{1,4}\.[a-z_.0-9]+$/, STR(64_000)],
    [/^cmi\.interactions\.\d{1,4}\.[a-z_.0-9]+$/, STR(256 * 1024)],
    [/^cmi\.comments_from_learner\.\d{1,4}\.(comment|location|timestamp)$/, STR(64_000)],
  ],
};

/** The runtime's error codes a bad value gets (1.2: 401 not implemented, 405 incorrect data type; 2004: 401, 406, 407). */
const CMI_ERRORS = {
  "1.2": { unknown: "401", type: "405", range: "405" },
  "2004": { unknown: "401", type: "406", range: "407" },
} as const;

/** Whether an element is one a SCO writes and the LMS keeps (the client sends only these). */
export function isKeptCmiElement(version: ScormVersion, element: string): boolean {
  return WRITABLE[version].some(([re]) => re.test(element));
}

/** Checks one value: null when valid, otherwise the version's error code. */
export function cmiValueError(version: ScormVersion, element: string, value: string): string | null {
  const codes = CMI_ERRORS[version];
  const rule = WRITABLE[version].find(([re]) => re.test(element))?.[1];
  if (!rule) return codes.unknown;
  switch (rule.kind) {
    case "vocab":
      return rule.values.includes(value) ? null : codes.type;
    case "string":
      return value.length <= rule.max ? null : codes.range;
    case "real": {
      if (value === "" && rule.empty) return null;
      if (!/^-?\d{1,10}(\.\d{1,20})?$/.test(value)) return codes.type;
      const n = Number(value);
      return (rule.min !== undefined && n < rule.min) || (rule.max !== undefined && n > rule.max) ? codes.range : null;
    }
    case "time12":
      return timespanCentis(value) === null ? codes.type : null;
    case "interval":
      // Strict, whatever the browser's run-time library accepted ("P1Y6M14DT" is no duration; issue 30 item 5).
      return intervalCentis(value) === null ? codes.type : null;
  }
}

/** The maximum a package's score counts out of when its activity names none (a package reports 0–100 % or scaled 0–1). */
export const SCORM_DEFAULT_MAX_SCORE = 100;

/** What a SCO reported, read from its kept data. */
export interface ScoOutcome {
  completed: boolean;
  /** null: the SCO said nothing about passing. */
  passed: boolean | null;
  /** 0–1, null without a score. */
  scaled: number | null;
}

/** What the package says about judging a SCO (its item in the manifest). */
export type ScoRules = Pick<ScormItem, "masteryScore" | "completionThreshold" | "scaledPassingScore">;

const num = (v: string | undefined) => (v === undefined || v === "" || !Number.isFinite(Number(v)) ? null : Number(v));

/**
 * SCORM 1.2 lesson_status / 2004 completion and success status, and the score, of one SCO — judged as
 * the LMS must (2004 RTE 4.2.4.1 and 4.2.22.1): with a completion threshold, completion comes from the
 * progress measure; with a scaled passing score, success from the scaled score.
 */
export function scoOutcome(version: ScormVersion, cmi: Record<string, string>, rules: ScoRules): ScoOutcome {
  if (version === "1.2") {
    const status = cmi["cmi.core.lesson_status"] ?? "not attempted";
    const raw = num(cmi["cmi.core.score.raw"]);
    const max = num(cmi["cmi.core.score.max"]) || 100;
    const min = num(cmi["cmi.core.score.min"]) ?? 0;
    const scaled = raw === null ? null : Math.min(1, Math.max(0, (raw - min) / (max - min || 100)));
    let passed = status === "passed" ? true : status === "failed" ? false : null;
    // RTE 3.4.2.1.4: with a mastery score, the LMS decides passed/failed from the raw score.
    if (rules.masteryScore !== null && raw !== null && (status === "completed" || passed !== null))
      passed = raw >= rules.masteryScore;
    return { completed: ["passed", "completed", "failed"].includes(status), passed, scaled };
  }
  const raw = num(cmi["cmi.score.raw"]);
  const max = num(cmi["cmi.score.max"]);
  const min = num(cmi["cmi.score.min"]) ?? 0;
  const scaledScore = num(cmi["cmi.score.scaled"]);
  const scaled = scaledScore ?? (raw !== null && max ? (raw - min) / (max - min) : null);
  const threshold = rules.completionThreshold ?? null;
  const progress = num(cmi["cmi.progress_measure"]);
  const completed =
    threshold !== null ? progress !== null && progress >= threshold : cmi["cmi.completion_status"] === "completed";
  // Manifests stored before issue 30 carry only the mastery score (minNormalizedMeasure × 100).
  const passing =
    rules.scaledPassingScore !== undefined
      ? rules.scaledPassingScore
      : rules.masteryScore === null
        ? null
        : rules.masteryScore / 100;
  const success = cmi["cmi.success_status"];
  const passed =
    passing !== null
      ? scaledScore === null
        ? null
        : scaledScore >= passing
      : success === "passed"
        ? true
        : success === "failed"
          ? false
          : null;
  return { completed, passed, scaled: scaled === null ? null : Math.max(0, Math.min(1, scaled)) };
}

/**
 * The activity's result from its SCOs (the implemented subset of 2004 rollup, decision 025):
 * complete when every SCO is complete; the score the mean of the SCOs' scores (equal weights);
 * passed when no SCO failed and at least one passed, failed when one failed.
 */
export function rollup(outcomes: ScoOutcome[]): ScoOutcome {
  const scores = outcomes.map((o) => o.scaled).filter((s): s is number => s !== null);
  const verdicts = outcomes.map((o) => o.passed).filter((p): p is boolean => p !== null);
  return {
    completed: outcomes.length > 0 && outcomes.every((o) => o.completed),
    passed: verdicts.length === 0 ? null : verdicts.every(Boolean),
    scaled: scores.length === 0 ? null : scores.reduce((a, b) => a + b, 0) / scores.length,
  };
}
