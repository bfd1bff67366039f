/**
 * The course content page as the loader hands it to the page (`content-viewer.server.ts` makes it; the
 * route and `components/content/` render it): the table of contents, the selected activity or the
 * long read, and what the learner may do (spec 2.5, 2.6, 4.12, 4.13).
 */
import type { TocIconName, ActivityIconTooltipKey } from "#domain/activity-access";
import type { SubmitPreview } from "#domain/contract/courses";
import type { TreeNode } from "#domain/contract/lifecycle";
import type { ObjectiveWorkflowState } from "#domain/vocabulary";
import type { Unfinished } from "#domain/submit-readiness";
import type { ActivityBody } from "./activity";
import type { DiscussionData } from "./discussion";
import type { TeamView } from "./team";

export const PRESENTATION_MODES = ["tree", "tiles", "longRead", "longReadWithoutNames"] as const;
type PresentationModeName = (typeof PRESENTATION_MODES)[number];

/** One row of the table of contents. */
export interface ContentItem {
  node: TreeNode;
  depth: number;
  locked: boolean;
  /** Why it is locked or disabled (spec 4.12), its date already formatted. */
  reason: { key: string; date: string | null } | null;
  icon: { icon: TocIconName | null; tooltipKeys: ActivityIconTooltipKey[] };
  /** The translation key of its state ("activity.inProgress"…). */
  statusKey: string;
  due: string | null;
}

export interface ContentView {
  course: {
    id: string;
    name: string;
    /** The course's language (issue 25 item 2: its texts in their own direction); null when unknown. */
    language: string | null;
    hasAnnouncements: boolean;
    supportMobileView: boolean;
    supportFullscreenView: boolean;
  };
  workflow: { id: string; state: ObjectiveWorkflowState; progress: number };
  rootId: string | null;
  mode: PresentationModeName;
  longRead: boolean;
  items: ContentItem[];
  selectedPath: string | null;
  /** The bodies of the activities shown (the selected one, or every one of a long read), by path id. */
  bodies: Record<string, ActivityBody>;
  discussion: DiscussionData | null;
  team: TeamView | null;
  readOnly: boolean;
  review: boolean;
  proctorLock: boolean;
  confirmSubmit: boolean;
  /** Spec 2.1 `inProctoringIframe`: shown in the proctored sitting's frame, the activity alone. */
  framed: boolean;
  /** What the submit confirmation names — the activities not handed in yet, of how many. */
  unfinished: Unfinished;
  /** What submitting now would record; null in review or where the API does not say. */
  submitPreview: SubmitPreview | null;
  refreshAt: string | null;
  reviewQuery: string;
  /** This page is being kept for offline reading (its notice's date, a command id per activity). */
  offlineCopy?: { savedAt: string; commandIds: Record<string, string> } | null;
}
