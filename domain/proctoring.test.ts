import { describe, expect, it } from "vitest";
import { proctorLocked } from "./proctoring";
import { ObjectiveWorkflowState, ObjectiveWorkflowState as W, ProctoringSessionState as P } from "./vocabulary";

describe("proctorLocked (spec 4.3, 4.8; docs/decisions/010-proctor-lock.md)", () => {
  const cases: [string, ObjectiveWorkflowState | null, P | null, boolean][] = [
    // No attempt or no session: nothing to lock.
    ["no attempt, no session", null, null, false],
    ["no attempt, a completed session", null, P.completed, false],
    ["in progress, no session", W.inProgress, null, false],
    // In progress: the sitting is over once the session is completed (or already reviewed).
    ["in progress, session created", W.inProgress, P.created, false],
    ["in progress, session in progress", W.inProgress, P.inProgress, false],
    ["in progress, session completed", W.inProgress, P.completed, true],
    ["in progress, session reviewed", W.inProgress, P.reviewed, true],
    // Submitted and later: Review waits for the proctor's review.
    ["submitted, session completed", W.submitted, P.completed, true],
    ["in grading, session completed", W.inGrading, P.completed, true],
    ["graded, session completed", W.graded, P.completed, true],
    ["grading approved, session completed", W.gradingApproved, P.completed, true],
    ["finished, session completed", W.finished, P.completed, true],
    ["finished, session reviewed", W.finished, P.reviewed, false],
    ["finished, session in progress (never completed)", W.finished, P.inProgress, false],
    ["finished, session created", W.finished, P.created, false],
    // A state the rule does not know locks nothing.
    ["in progress, unknown state 9", W.inProgress, 9 as P, false],
    ["finished, unknown state 9", W.finished, 9 as P, false],
  ];
  it.each(cases)("%s → %s", (_label, workflow, session, expected) => {
    expect(
      proctorLocked({
        workflow: workflow === null ? null : { state: workflow },
        session: session === null ? null : { state: session },
      }),
    ).toBe(expected);
  });
});
