import { z } from "zod";
import type { ScormSharedDataMap, ScormVersion } from "../scorm";
import type { ControlMode } from "../scorm-attempt";

/**
 * One SCO of the package as the player needs it (launch URL relative to the package's folder), with
 * what its next launch starts from: the entry and attempt the server decided, the data that
 * comes back (none for a new attempt), the attempt's total time, and the manifest's values.
 */
export interface ScormSco {
  id: string;
  title: string;
  launch: string;
  /** Nesting depth in the organization (the table of contents' indent). */
  depth: number;
  /** An asset: launched without the run-time API, never reports. */
  asset: boolean;
  /** cmi.entry / cmi.core.entry of the next launch. */
  entry: "ab-initio" | "resume" | "";
  /** The attempt the next launch's commits belong to. */
  attempt: number;
  /** What the learner left (kept CMI elements): empty for a new attempt. */
  cmi: Record<string, string>;
  /** cmi.total_time (2004 timeinterval) / cmi.core.total_time (1.2 CMITimespan) of the attempt. */
  totalTime: string;
  /** The last applied commit's sequence number. */
  sequence: number;
  completed: boolean;
  launchData: string | null;
  /** 1.2 cmi.student_data.mastery_score (0–100). */
  masteryScore: number | null;
  /** 2004 cmi.scaled_passing_score. */
  scaledPassingScore: number | null;
  /** 2004 cmi.completion_threshold. */
  completionThreshold: number | null;
  /** Seconds: cmi.max_time_allowed / cmi.student_data.max_time_allowed. */
  timeLimit: number | null;
  /** cmi.time_limit_action / cmi.student_data.time_limit_action. */
  timeLimitAction: string | null;
  /** adl.data: the shared data buckets the SCO may read and write. */
  sharedData: ScormSharedDataMap[];
}

/** GET /api/scorm/v1/users/me/objective-workflows/{id}/activity-workflows/{awId}/runtime. */
export interface ScormRuntime {
  activityId: string;
  activityWorkflowId: string;
  version: ScormVersion;
  title: string;
  controlMode: ControlMode;
  scos: ScormSco[];
  /** The SCO a visit launches first: the one suspended with suspendAll, else the first not completed. */
  start: number;
  /** cmi.learner_id / cmi.learner_name (cmi.core.student_id / student_name). */
  learner: { id: string; name: string };
  /** adl.data stores by target id (this learner, this package). */
  sharedData: Record<string, string>;
  /**
   * The package's files are served on the content origin under /scorm/{contentToken}/… (issue 29 item 1):
   * a signed, short-lived grant to read this package's files for this learner, nothing else.
   */
  contentToken: string;
}

/**
 * The largest body of one commit: the kept data of a SCO is sent whole with each commit, and
 * ADL's data-model test fills 250 interactions and comments (270 KB); eight times that is room enough.
 */
export const SCORM_COMMIT_MAX_BYTES = 2 * 1024 * 1024;

/** The longest value of one element the server keeps. */
const SCORM_VALUE_MAX_CHARS = 256 * 1024;

/** The app's and the API's paths that carry one commit (their body may be up to SCORM_COMMIT_MAX_BYTES). */
export const isScormCommitPath = (path: string) =>
  /^\/learn\/scorm-runtime\/[^/]+\/[^/]+$/.test(path) ||
  /^\/api\/lms\/v1\/users\/me\/objective-workflows\/[^/]+\/activity-workflows\/[^/]+$/.test(path);

/** adl.nav.request values a SCO may leave at Terminate (SCORM 2004 SN, RTE 4.4.x). */
const NAV_REQUEST =
  /^(|_none_|continue|previous|exit|exitAll|abandon|abandonAll|suspendAll|\{target=[^{}\s]{1,4000}\}(choice|jump))$/;

/**
 * The `scorm` payload of spec 7.3's PUT activity workflow (issue 15, issue 30): one commit of one SCO —
 * the attempt it belongs to, the kept CMI elements (flattened, "cmi.core.lesson_location": "3"), a
 * sequence number higher than the last one applied (a duplicate or late commit changes nothing), and
 * on LMSFinish/Terminate `finish` with the SCO's last navigation request; `shared` carries the adl.data
 * stores the SCO wrote.
 */
export const scormCommitSchema = z
  .object({
    scoId: z.string().min(1).max(255),
    attempt: z.number().int().min(1).max(1_000_000).default(1),
    sequence: z.number().int().min(1).max(2_147_483_647),
    // A value may pass its SPM (ADL's test writes a performance response of 250 steps): the body's limit bounds them all.
    cmi: z.record(z.string().max(255), z.string().max(SCORM_VALUE_MAX_CHARS)),
    finish: z.boolean().optional(),
    navRequest: z.string().max(4100).regex(NAV_REQUEST).optional(),
    shared: z.record(z.string().min(1).max(4000), z.string().max(64_000)).optional(),
  })
  .strict();
export type ScormCommit = z.infer<typeof scormCommitSchema>;

/** The PUT's answer to a commit. */
export interface ScormCommitResult {
  /** false: a duplicate, out-of-order or stale commit (its sequence was not above the last applied). */
  applied: boolean;
  sequence: number;
  /** The activity workflow was finished by this commit (the package is complete). */
  finished: boolean;
}

/** `POST /api/scorm/v1/packages?course=CODE[&activity=ID][&title=…]`: where the package goes. */
export const scormImportQuerySchema = z.object({
  course: z.string().min(1).max(60),
  activity: z.uuid().optional(),
  title: z.string().min(1).max(200).optional(),
});
