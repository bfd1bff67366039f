/**
 * The run-time API a SCO calls (SCORM 1.2 `API`, 2004 `API_1484_11`), made of scorm-again's
 * Scorm12API / Scorm2004API and loaded with what the launch starts from: entry,
 * data, total time, the learner, the manifest's values, shared data and the valid navigation requests.
 *
 * It guards faults of the scorm-again version shipped (decision 040; docs/scorm-again-faults.md is the
 * reproduction for upstream), with the spec's error codes:
 * - SetValue/GetValue of a container ("cmi", "cmi.objectives", "cmi.interactions.0") replaced the data
 *   model and broke every later call: refused as an undefined element (2004: 401; 1.2: 201);
 * - an empty characterstring (cmi.location "", suspend_data "") was refused with 406: stored;
 * - malformed timeintervals ("P1Y6M14DT", "PT") were accepted: refused with 406;
 * - an empty adl.data store reads as not initialised (403);
 * - an exception thrown inside the library becomes a false/"" answer with a general error (101).
 * The server checks every value again by its own rules, so nothing here is trusted.
 */
import type { LaunchData, SessionCommit } from "./bridge";
import { isKeptCmiElement, type ScormVersion } from "#domain/scorm";
import { intervalCentis } from "#domain/scorm-time";
import { getError, setError } from "./data-model-2004";

/** What the launcher holds: the API object the SCO finds, and the name it is found under. */
export interface RuntimeHandle {
  api: Record<string, unknown>;
  global: "API" | "API_1484_11";
  /** The SCO called Initialize/LMSInitialize. */
  readonly initialized: boolean;
  /** The SCO called Terminate/LMSFinish. */
  readonly terminated: boolean;
  /** Sends what changed since the last commit (the launcher's autosave, and before the SCO is taken down). */
  flush(): void;
}

interface Inner {
  on(event: string, callback: (...args: unknown[]) => void): void;
  loadFromFlattenedJSON(json: Record<string, string>): void;
  getFlattenedCMI(): Record<string, unknown>;
  throwSCORMError(element: string, code: number, message?: string): void;
  lastErrorCode: string;
  [method: string]: unknown;
  adl?: {
    nav: { request_valid: { continue: string; previous: string; choice: unknown; jump: unknown } };
    configureSharedDataMaps(maps: { targetID: string; readSharedData: boolean; writeSharedData: boolean }[]): void;
    restoreSharedDataSnapshot(snapshot: Record<string, string>): void;
    captureWritableSharedDataSnapshot(): Record<string, string>;
  };
}

/** The 2004 characterstrings an empty value is valid for (RTE 4.2: SPM minimum 0). */
const EMPTY_ALLOWED_2004 = [
  /^cmi\.location$/,
  /^cmi\.suspend_data$/,
  /^cmi\.comments_from_learner\.\d+\.(comment|location)$/,
  /^cmi\.objectives\.\d+\.description$/,
  /^cmi\.interactions\.\d+\.description$/,
];
/** A value scorm-again accepts for the element, stored in place of "" (never sent, never shown). */
const EMPTY_MARK = "\u2060";

/** Values scorm-again accepts for each interaction type's pattern and learner response (see `guarded`). */
const STAND_IN: Record<string, [pattern: string, response: string]> = {
  "true-false": ["true", "true"],
  choice: ["a", "a"],
  "fill-in": ["a", "a"],
  "long-fill-in": ["a", "a"],
  likert: ["a", "a"],
  matching: ["a[.]b", "a[.]b"],
  performance: ["a[.]b", "a[.]b"],
  sequencing: ["a", "a"],
  numeric: ["0[:]1", "0"],
  other: ["a", "a"],
};

const METHODS = {
  "1.2": [
    "LMSInitialize",
    "LMSFinish",
    "LMSGetValue",
    "LMSSetValue",
    "LMSCommit",
    "LMSGetLastError",
    "LMSGetErrorString",
    "LMSGetDiagnostic",
  ],
  "2004": [
    "Initialize",
    "Terminate",
    "GetValue",
    "SetValue",
    "Commit",
    "GetLastError",
    "GetErrorString",
    "GetDiagnostic",
  ],
} as const;

/** Loads scorm-again for the version (its ES builds export the classes by name). */
async function innerApi(version: ScormVersion): Promise<Inner> {
  const settings = { lmsCommitUrl: false as const, autocommit: false, logLevel: 5 as const };
  type Ctor = new (settings: object) => Inner;
  return version === "1.2"
    ? new ((await import("scorm-again/scorm12")) as unknown as { Scorm12API: Ctor }).Scorm12API(settings)
    : new ((await import("scorm-again/scorm2004")) as unknown as { Scorm2004API: Ctor }).Scorm2004API(settings);
}

/** The launch's values as flattened CMI elements of the version. */
function initialCmi(d: LaunchData): Record<string, string> {
  const out: Record<string, string> = { ...d.cmi };
  const set = (element: string, value: string | number | null | undefined) => {
    if (value !== null && value !== undefined) out[element] = String(value);
  };
  if (d.version === "1.2") {
    set("cmi.core.student_id", d.learner.id);
    set("cmi.core.student_name", d.learner.name);
    set("cmi.core.entry", d.entry);
    set("cmi.core.total_time", d.totalTime);
    set("cmi.core.credit", "credit");
    set("cmi.core.lesson_mode", "normal");
    set("cmi.launch_data", d.launchData);
    set("cmi.student_data.mastery_score", d.masteryScore);
    set("cmi.student_data.max_time_allowed", d.timeLimit === null ? null : timespan(d.timeLimit));
    set("cmi.student_data.time_limit_action", d.timeLimitAction);
    return out;
  }
  set("cmi.learner_id", d.learner.id);
  set("cmi.learner_name", d.learner.name);
  set("cmi.entry", d.entry);
  set("cmi.total_time", d.totalTime);
  set("cmi.credit", "credit");
  set("cmi.mode", "normal");
  set("cmi.launch_data", d.launchData);
  set("cmi.completion_threshold", d.completionThreshold);
  set("cmi.scaled_passing_score", d.scaledPassingScore);
  set("cmi.max_time_allowed", d.timeLimit === null ? null : `PT${d.timeLimit}S`);
  set("cmi.time_limit_action", d.timeLimitAction);
  return out;
}

function timespan(seconds: number): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(Math.min(9999, Math.floor(seconds / 3600)))}:${two(Math.floor((seconds % 3600) / 60))}:${two(seconds % 60)}`;
}

/**
 * Flattened elements in the order a data model is built: records by their number (not as text), and
 * within a record its id and type before the rest.
 */
function dataModelOrder(flat: Record<string, string>): [string, string][] {
  const rank = (segment: string) => (segment === "id" ? 0 : segment === "type" ? 1 : 2);
  return Object.entries(flat).sort(([a], [b]) => {
    const x = a.split(".");
    const y = b.split(".");
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] === y[i]) continue;
      const [nx, ny] = [/^\d+$/.test(x[i]), /^\d+$/.test(y[i])];
      if (nx && ny) return Number(x[i]) - Number(y[i]);
      if (i > 0 && /^\d+$/.test(x[i - 1]) && rank(x[i]) !== rank(y[i])) return rank(x[i]) - rank(y[i]);
      return x[i] < y[i] ? -1 : 1;
    }
    return x.length - y.length;
  });
}

/** The values the library refuses though the data model allows them (RTE 4.2.9.1, 4.2.12). */
function directlyStored(element: string, value: string): boolean {
  if (/^cmi\.interactions\.\d+\.id$/.test(element)) return true; // already checked by setError (a URI)
  if (/^cmi\.learner_preference\.(delivery_speed|audio_level)$/.test(element))
    return /^\d+(\.\d+)?$/.test(value) && Number(value) >= 0;
  if (element === "cmi.learner_preference.language") return value === "";
  return false;
}

/** Sets a value in the record that holds it, where the library keeps it (`_name`). */
function storeDirect(inner: Inner, element: string, value: string): boolean {
  const parts = element.split(".");
  let node: unknown = inner;
  for (const part of parts.slice(0, -1)) {
    const holder = node as Record<string, unknown> & { childArray?: unknown[] };
    node = /^\d+$/.test(part) && Array.isArray(holder?.childArray) ? holder.childArray[Number(part)] : holder?.[part];
    if (node === null || typeof node !== "object") return false;
  }
  const field = `_${parts[parts.length - 1]}`;
  if (!(field in (node as object))) return false;
  (node as Record<string, unknown>)[field] = value;
  return true;
}

/** Whether `element` names a container of the data model (an object, not a value) in `inner`. */
function isContainer(inner: Inner, element: string): boolean {
  const parts = element.split(".");
  if (parts[0] !== "cmi" && parts[0] !== "adl") return false;
  let node: unknown = inner;
  for (const part of parts) {
    if (node === null || typeof node !== "object") return false;
    const holder = node as Record<string, unknown> & { childArray?: unknown[] };
    if (/^\d+$/.test(part) && Array.isArray(holder.childArray)) node = holder.childArray[Number(part)];
    else if (part.startsWith("_") || part.startsWith("{")) return false;
    else {
      try {
        node = holder[part];
      } catch {
        return false; // a write-only element's getter throws: a value, not a container
      }
    }
  }
  return node !== null && typeof node === "object";
}

/**
 * Creates the API for one launch. `onCommit` receives each save of the SCO's kept data: on
 * Commit/LMSCommit, on Terminate/LMSFinish (finish), and from `flush()`.
 */
export async function createRuntime(d: LaunchData, onCommit: (commit: SessionCommit) => void): Promise<RuntimeHandle> {
  const version = d.version;
  const inner = await innerApi(version);
  /** Interaction patterns and responses exactly as the SCO set them (the library rewrites their delimiters). */
  const raw = new Map<string, string>();
  const RAW = /^cmi\.interactions\.\d+\.(learner_response|correct_responses\.\d+\.pattern)$/;
  // One element at a time in the data model's order: the library sorts some collections' keys as text
  // ("10" before "2") and loses every record after the tenth (cmi.comments_from_learner). A value the
  // library refuses to load though the SCO could set it (an interaction format, see `guarded`) gets
  // its stand-in, and the value itself is kept here.
  const types = new Map<string, string>();
  for (const [element, value] of dataModelOrder(initialCmi(d))) {
    const type = /^(cmi\.interactions\.\d+)\.type$/.exec(element);
    if (type) types.set(type[1], value);
    try {
      // The library skips an empty value on load: an empty pattern or response takes the stand-in path.
      if (value === "" && RAW.test(element)) throw new Error("empty");
      inner.loadFromFlattenedJSON({ [element]: value });
    } catch {
      const record = RAW.exec(element)
        ? element.replace(/\.(learner_response|correct_responses\.\d+\.pattern)$/, "")
        : null;
      const standIn = record
        ? STAND_IN[types.get(record) ?? ""]?.[element.endsWith("learner_response") ? 1 : 0]
        : undefined;
      if (standIn === undefined) continue;
      try {
        inner.loadFromFlattenedJSON({ [element]: standIn });
        raw.set(element, value);
      } catch {
        // nothing more to do: the element is left out
      }
    }
  }
  if (version === "2004" && inner.adl) {
    const rv = inner.adl.nav.request_valid;
    rv.continue = d.nav.continue;
    rv.previous = d.nav.previous;
    rv.choice = d.nav.choice;
    rv.jump = d.nav.jump;
    inner.adl.configureSharedDataMaps(
      d.sharedData.maps.map((m) => ({ targetID: m.targetId, readSharedData: m.read, writeSharedData: m.write })),
    );
    const mapped = new Set(d.sharedData.maps.map((m) => m.targetId));
    inner.adl.restoreSharedDataSnapshot(
      Object.fromEntries(Object.entries(d.sharedData.stores).filter(([id]) => mapped.has(id))),
    );
  }
  const names = METHODS[version];
  const call = (name: string, ...args: unknown[]) => (inner[name] as (...a: unknown[]) => string)(...args);
  const undefinedElement = version === "1.2" ? 201 : 401;
  let override: string | null = null;
  let initialized = false;
  let terminated = false;
  let navRequest = "";
  let sessionTimeSet = false;
  let dirty = false;
  const emptied = new Set<string>();
  const model = { get: (element: string) => String(call(names[2], element)) };
  const sharedAtStart = { ...d.sharedData.stores };

  const commitData = (finish: boolean): SessionCommit => {
    const flat = inner.getFlattenedCMI();
    const cmi: Record<string, string> = {};
    for (const [element, value] of Object.entries(flat)) {
      if (typeof value !== "string" || !isKeptCmiElement(version, element)) continue;
      const kept = emptied.has(element) || value === EMPTY_MARK ? "" : (raw.get(element) ?? value);
      const exitElement = version === "1.2" ? "cmi.core.exit" : "cmi.exit";
      if (kept === "" && element !== exitElement && !emptied.has(element) && !raw.has(element)) continue;
      cmi[element] = kept;
    }
    // What the library leaves out of its own rendering (an empty pattern, an emptied string) is saved too.
    for (const [element, value] of raw) if (!(element in cmi)) cmi[element] = value;
    for (const element of emptied) if (!(element in cmi) && isKeptCmiElement(version, element)) cmi[element] = "";
    // Only a session time the SCO set counts (the library would otherwise report its own default).
    const sessionElement = version === "1.2" ? "cmi.core.session_time" : "cmi.session_time";
    if (!sessionTimeSet) delete cmi[sessionElement];
    const shared: Record<string, string> = {};
    if (version === "2004" && inner.adl) {
      for (const [id, store] of Object.entries(inner.adl.captureWritableSharedDataSnapshot()))
        if (sharedAtStart[id] !== store) shared[id] = store;
    }
    return { cmi, finish, navRequest: finish ? navRequest : "", shared };
  };
  const send = (finish: boolean) => {
    dirty = false;
    const commit = commitData(finish);
    for (const [id, store] of Object.entries(commit.shared)) sharedAtStart[id] = store;
    onCommit(commit);
  };

  const guarded = (name: string, ...args: unknown[]): string => {
    const [element, value] = args as [string, unknown];
    const [initialize, terminate, getValue, setValue, commit, getLastError] = names;
    if (name === getLastError) return override ?? call(name);
    if (name === names[6] || name === names[7]) return call(name, ...args); // error string, diagnostic
    override = null;
    const refuse = (code: number, answer: string) => {
      override = String(code);
      return answer;
    };
    try {
      if ((name === getValue || name === setValue) && initialized && !terminated) {
        if (typeof element === "string" && isContainer(inner, element))
          return refuse(undefinedElement, name === getValue ? "" : "false");
      }
      if (name === setValue && initialized && !terminated && typeof element === "string") {
        const text = typeof value === "string" ? value : String(value);
        if (version === "2004") {
          const error = setError(element, text, model);
          if (error) return refuse(error, "false");
          if (
            (element === "cmi.session_time" || /^cmi\.interactions\.\d+\.latency$/.test(element)) &&
            intervalCentis(text) === null
          )
            return refuse(406, "false");
          if (text === "" && EMPTY_ALLOWED_2004.some((re) => re.test(element))) {
            const answer = call(name, element, EMPTY_MARK);
            if (answer === "true") {
              emptied.add(element);
              dirty = true;
            }
            return answer;
          }
        }
        let answer = call(name, element, value);
        if (answer === "false" && call(getLastError) === "406" && version === "2004" && RAW.test(element)) {
          // The value passed the data model's own rules (setError) but not the library's stricter
          // reading of interaction formats ("", "[,]", delimiters): it keeps a stand-in, the SCO's
          // value is kept here, read back and saved exactly.
          const type = model.get(element.replace(/\.(learner_response|correct_responses\.\d+\.pattern)$/, ".type"));
          const standIn = STAND_IN[type]?.[element.endsWith("learner_response") ? 1 : 0];
          if (standIn !== undefined) answer = call(name, element, standIn);
        }
        if (answer === "false" && version === "2004" && directlyStored(element, text)) {
          // A value the data model allows that the library refuses (a new id for an interaction,
          // a delivery speed of 0, no language): stored in its record as the library keeps it.
          const stored = storeDirect(inner, element, text);
          if (stored) answer = "true";
          override = stored ? "0" : override;
        }
        if (answer === "true") {
          emptied.delete(element);
          if (RAW.test(element)) raw.set(element, text);
          dirty = true;
          if (element === "adl.nav.request") navRequest = text;
          if (element === "cmi.session_time" || element === "cmi.core.session_time") sessionTimeSet = true;
        }
        return answer;
      }
      if (name === getValue && typeof element === "string") {
        if (version === "2004" && initialized && !terminated) {
          const error = getError(element, model);
          if (error) return refuse(error, "");
        }
        const answer = call(name, element);
        if (raw.has(element) && call(getLastError) === "0") return raw.get(element)!;
        if (emptied.has(element) || answer === EMPTY_MARK) return "";
        if (
          version === "2004" &&
          /^adl\.data\.\d+\.store$/.test(element) &&
          answer === "" &&
          call(getLastError) === "0"
        )
          return refuse(403, "");
        return answer;
      }
      const answer = call(name, ...args);
      if (name === initialize && answer === "true") initialized = true;
      if (name === commit && answer === "true") send(false);
      if (name === terminate && answer === "true") {
        terminated = true;
        send(true);
      }
      return answer;
    } catch {
      // An exception inside the library (its faults) must not reach the SCO: a general exception.
      return refuse(101, name === getValue ? "" : "false");
    }
  };

  const api: Record<string, unknown> = {};
  for (const name of names) api[name] = (...args: unknown[]) => guarded(name, ...args);
  if (version === "2004") api.version = "1.0";
  return {
    api,
    global: version === "1.2" ? "API" : "API_1484_11",
    get initialized() {
      return initialized;
    },
    get terminated() {
      return terminated;
    },
    flush() {
      if (dirty && initialized && !terminated) send(false);
    },
  };
}
