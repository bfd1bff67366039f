/** A team activity as the page shows it (`group-work.server.ts` makes it, `<TeamPanel>` renders it). */
import type { WorkMode } from "#domain/groups";
import type { ActivityWorkflowState } from "#domain/vocabulary";

export interface TeamView {
  activityPathId: string;
  aggregateId: string;
  /** The modes the activity offers; a choice is shown when there are two. */
  modes: WorkMode[];
  /** How the learner works on it: not started (null), alone, or in the group's workflow. */
  mode: WorkMode | null;
  group: { name: string; kind: string } | null;
  work: {
    id: string;
    state: ActivityWorkflowState;
    text: string;
    version: number;
    updated: { by: string; time: string } | null;
    submitted: { by: string; time: string } | null;
    result: { score: number | null; maxScore: number | null } | null;
  } | null;
  participants: {
    rows: {
      id: string;
      name: string;
      me: boolean;
      contributions: number;
      last: string | null;
      lastAt: string | null;
      kind: string | null;
    }[];
    totalCount: number;
    page: number;
    pageSize: number;
    search: string;
  } | null;
}
