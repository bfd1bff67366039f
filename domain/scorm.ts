/**
 * SCORM packages (issue 15, spec 1 "SCORM submission", decision 025): the pure rules both the import
 * (api/scorm/) and the runtime (app/components/scorm/) follow — which zip entry names are safe, how
 * an item's launch URL is made, which manifest schema version is which SCORM version.
 */

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
  children: ScormItem[];
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
  const clock = /^(\d{2,4}):(\d{2}):(\d{2})(\.\d{1,2})?$/.exec(v);
  if (clock) return Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3]) + Number(clock[4] ?? 0);
  const iso = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(v);
  if (!iso || v === "P" || v.endsWith("T")) return null;
  const [, y, mo, d, h, mi, s] = iso.map((x) => Number(x ?? 0));
  return Math.round(((y * 365 + mo * 30 + d) * 24 + h) * 3600 + mi * 60 + s);
}
