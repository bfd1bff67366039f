import { ObjectiveWorkflowState, ProctoringSessionState } from "./vocabulary";
/**
 * Spec 4.8 proctor lock: "A completed proctor session blocks actions unless the state fits (exact
 * rule not shown)". The rule chosen is recorded in docs/decisions/010-proctor-lock.md. Pure.
 */

const S = ProctoringSessionState;

/**
 * Whether the last proctoring session of the attempt's activity workflow locks the course buttons
 * (spec 4.3 'not proctor-locked'):
 * - no session, or no attempt: never locked;
 * - attempt in progress: locked once the session is over (completed or reviewed) — a proctored
 *   sitting cannot be resumed without a proctor, so Continue is disabled;
 * - attempt submitted or later: locked while the session is completed but not yet reviewed — the
 *   proctor may still void the attempt, so Review waits; a reviewed session unlocks it;
 * - a session that is only created or in progress locks nothing (the spec locks on a completed one),
 *   and neither does a state this rule does not know.
 */
export function proctorLocked(input: {
  workflow: { state: ObjectiveWorkflowState } | null | undefined;
  session: { state: ProctoringSessionState } | null | undefined;
}): boolean {
  const { workflow, session } = input;
  if (!workflow || !session) return false;
  if (workflow.state === ObjectiveWorkflowState.inProgress)
    return session.state === S.completed || session.state === S.reviewed;
  return session.state === S.completed;
}
