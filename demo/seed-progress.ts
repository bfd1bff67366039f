/**
 * A learner's progress through a course's activities, as rows: the activity workflows and records of
 * one attempt (the leaves marked done, then the next required ones until the attempt's progress is
 * reached, one more in progress), and the proctoring sessions of its proctored leaves.
 */
import {
  ActivityContentType,
  ActivityWorkflowState,
  ObjectiveState,
  ObjectiveWorkflowState,
  ProctoringSessionState,
} from "../domain/vocabulary";
import type * as s from "../api/db/schema";
import type { CourseLeaf } from "./seed-activities";
import { DAY_MS } from "./recipe-values";
import { DemoContentError } from "./content/files";

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

export type WorkflowRow = typeof s.objectiveWorkflows.$inferInsert;
export type AwRow = typeof s.activityWorkflows.$inferInsert;
export type RecRow = typeof s.activityRecords.$inferInsert;
export type SessionRow = typeof s.proctoringSessions.$inferInsert;
export type Leaf = CourseLeaf & { partId: string };

/** Score variation between activities of one attempt, so not every activity has the same ratio. */
const JITTER = [0, 0.1, -0.1, 0.05, -0.05, 0.15, -0.15];
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * Activity workflows and records for one objective workflow. In progress: the leaves marked `done`
 * plus the next required startable leaves in tree order, until finished / required ≈ progress, and
 * one more leaf in progress. Submitted and later: every startable leaf finished; manually graded
 * leaves wait in grading (no score) until the course is graded (state 4 on).
 */
export function progressRows(
  wf: WorkflowRow & { id: string; userId: string; state: ObjectiveWorkflowState; progress: number },
  leaves: Leaf[],
  record: { score: number | null; maxScore: number | null } | null,
  now: Date,
  sittingOpen = false,
) {
  const aws: AwRow[] = [];
  const records: RecRow[] = [];
  const required = leaves.filter((l) => !l.optional && l.state !== ObjectiveState.archived);
  let finished: Leaf[];
  let inProgress: Leaf | null = null;
  if (wf.state === ObjectiveWorkflowState.inProgress) {
    const target = Math.round(wf.progress * required.length);
    const chosen = new Set(leaves.filter((l) => l.done && l.startable));
    let count = required.filter((l) => chosen.has(l)).length;
    for (const l of required) {
      if (count >= target) break;
      if (!l.startable || l.missed || chosen.has(l)) continue;
      chosen.add(l);
      count++;
    }
    finished = leaves.filter((l) => chosen.has(l));
    inProgress = required.find((l) => l.startable && !l.missed && !chosen.has(l)) ?? null;
  } else {
    finished = leaves.filter((l) => l.startable);
  }
  // Tree order, except that leaves with a closing date come first: they were finished before it.
  const closes = (l: Leaf) => l.deadline ?? Number.MAX_SAFE_INTEGER;
  finished = [...finished].sort((a, b) => closes(a) - closes(b));

  const ratio = record && record.score !== null && record.maxScore ? record.score / record.maxScore : 0.85;
  const unresolved = !!record && record.score === null;
  const start = (wf.started ?? new Date(now.getTime() - 7 * DAY_MS)).getTime();
  const end = Math.max(start + HOUR_MS, (wf.submitted ?? new Date(now.getTime() - HOUR_MS)).getTime());
  const steps = finished.length + (inProgress ? 1 : 0);
  const slot = (end - start) / Math.max(1, steps);
  finished.forEach((leaf, i) => {
    const started = new Date(start + slot * i + 5 * MINUTE_MS);
    const done = new Date(Math.min(started.getTime() + Math.min(slot * 0.8, 50 * MINUTE_MS), end));
    const awaitingGrade = leaf.manualGrading && wf.state < ObjectiveWorkflowState.graded;
    const id = crypto.randomUUID();
    aws.push({
      id,
      objectiveWorkflowId: wf.id,
      activityPartId: leaf.partId,
      userId: wf.userId,
      state: awaitingGrade ? ActivityWorkflowState.inGrading : ActivityWorkflowState.finished,
      started,
      finished: done,
    });
    let score: number | null = null;
    if (leaf.maxScore !== null && !awaitingGrade && !(unresolved && leaf.manualGrading)) {
      score = Math.round(leaf.maxScore * clamp01(ratio + JITTER[i % JITTER.length]));
    }
    records.push({
      activityWorkflowId: id,
      objectiveWorkflowId: wf.id,
      activityPartId: leaf.partId,
      userId: wf.userId,
      score,
      maxScore: leaf.maxScore,
      passed: score === null || leaf.maxScore === null ? null : score / leaf.maxScore >= 0.6,
      finished: done,
    });
  });
  if (inProgress) {
    aws.push({
      id: crypto.randomUUID(),
      objectiveWorkflowId: wf.id,
      activityPartId: inProgress.partId,
      userId: wf.userId,
      state: ActivityWorkflowState.inProgress,
      started: new Date(start + slot * finished.length + 5 * MINUTE_MS),
      finished: null,
      resume:
        inProgress.contentType === ActivityContentType.PublicFile
          ? { page: 3 }
          : inProgress.contentType === ActivityContentType.Vimeo
            ? { seconds: 41 }
            : null,
    });
  }
  // Spec 4.8: a proctored activity's sitting. Submitted attempts were reviewed by the proctor; an
  // attempt still in progress had its session end (completed) before it was submitted — the proctor
  // lock of docs/decisions/010-proctor-lock.md — unless the recipe keeps the sitting open (`sittingOpen`).
  const sessions: SessionRow[] = [];
  for (const aw of aws) {
    const leaf = leaves.find((l) => l.partId === aw.activityPartId);
    if (!leaf?.proctored || !aw.started) continue;
    const created = new Date((aw.started as Date).getTime() + MINUTE_MS);
    if (sittingOpen && !aw.finished && wf.state === ObjectiveWorkflowState.inProgress) {
      sessions.push({
        id: crypto.randomUUID(),
        activityWorkflowId: aw.id!,
        userId: wf.userId,
        state: ProctoringSessionState.inProgress,
        created,
        completed: null,
      });
      continue;
    }
    const completed = aw.finished
      ? (aw.finished as Date)
      : new Date(Math.min(created.getTime() + 100 * MINUTE_MS, now.getTime() - MINUTE_MS));
    sessions.push({
      id: crypto.randomUUID(),
      activityWorkflowId: aw.id!,
      userId: wf.userId,
      state:
        wf.state === ObjectiveWorkflowState.inProgress
          ? ProctoringSessionState.completed
          : ProctoringSessionState.reviewed,
      created,
      completed,
    });
  }
  return { aws, records, sessions };
}

export type ScormRow = typeof s.scormAttempts.$inferInsert;

/**
 * What the learner left in the SCOs of a SCORM course (the recipe's `scorm`, checked by demo-content.ts):
 * run-time rows of the activity workflow of the course's root activity, which holds the package. The
 * attempt must have that activity in progress (a commit to a finished one is refused too).
 */
export function scormRowsOf(
  slug: string,
  leaves: Leaf[],
  aws: AwRow[],
  scorm: Record<string, Record<string, string>>,
): ScormRow[] {
  const root = leaves.find((l) => l.axis === "0");
  const aw = root && aws.find((w) => w.activityPartId === root.partId);
  if (!aw || aw.state !== ActivityWorkflowState.inProgress)
    throw new DemoContentError(
      slug,
      "attempts.scorm",
      "the package's activity is not in progress in this attempt (give the attempt a progress below 0.5)",
    );
  const at = new Date((aw.started as Date).getTime() + 10 * MINUTE_MS);
  return Object.entries(scorm).map(([scoId, cmi]) => ({
    activityWorkflowId: aw.id!,
    scoId,
    cmi,
    // The commits it took to leave this; the player's next one follows it.
    sequence: Object.keys(cmi).length,
    updatedAt: at,
  }));
}

export async function insertChunked<T>(
  rows: T[],
  size: number,
  insert: (chunk: T[]) => Promise<unknown>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}
