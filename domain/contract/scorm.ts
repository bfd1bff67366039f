import { z } from "zod";
import type { ScormVersion } from "../scorm";

/** One SCO of the package as the player needs it (launch URL relative to the package's folder). */
export interface ScormSco {
  id: string;
  title: string;
  launch: string;
  /** Nesting depth in the organization (the table of contents' indent). */
  depth: number;
  launchData: string | null;
  masteryScore: number | null;
  timeLimit: number | null;
  /** What the learner left: the kept CMI elements and the last applied commit's sequence number. */
  cmi: Record<string, string>;
  sequence: number;
  completed: boolean;
}

/** GET /api/scorm/v1/users/me/objective-workflows/{id}/activity-workflows/{awId}/runtime. */
export interface ScormRuntime {
  activityId: string;
  activityWorkflowId: string;
  version: ScormVersion;
  title: string;
  controlMode: { choice: boolean; flow: boolean };
  scos: ScormSco[];
}

/**
 * The `scorm` payload of spec 7.3's PUT activity workflow (issue 15): one commit of one SCO — the
 * kept CMI elements (flattened, "cmi.core.lesson_location": "3"), a sequence number higher than the
 * last one applied (a duplicate or late commit changes nothing), and `finish` on LMSFinish/Terminate.
 */
export const scormCommitSchema = z
  .object({
    scoId: z.string().min(1).max(255),
    sequence: z.number().int().min(1).max(2_147_483_647),
    cmi: z.record(z.string().max(255), z.string().max(65_000)),
    finish: z.boolean().optional(),
  })
  .strict();
export type ScormCommit = z.infer<typeof scormCommitSchema>;

/** The PUT's answer to a commit. */
export interface ScormCommitResult {
  /** false: a duplicate or out-of-order commit (its sequence was not above the last applied). */
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
