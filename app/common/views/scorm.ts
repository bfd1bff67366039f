import type { ScormRuntime } from "#domain/contract/scorm";

/** What the content page's loader prepares for a SCORM activity. */
export interface ScormBody {
  kind: "scorm";
  workflowId: string | null;
  /** The content origin the package runs on (decision 040). */
  contentOrigin: string;
  /** The package and the learner's saved data; null before the activity is started. */
  runtime: ScormRuntime | null;
  /** The activity workflow is open: the package runs and commits are saved. */
  inProgress: boolean;
}
