/**
 * The SCORM run-time on the server (issue 15 items 2–4, decision 025): the package and what the
 * learner left in each SCO (resume), and one commit of a SCO — validated element by element against
 * the version's data model (a bad value is refused with the runtime's error code, never a 500),
 * applied only when its sequence number is above the last applied one (one statement: a duplicate or
 * late commit changes nothing, on PGlite and PostgreSQL alike), and on LMSFinish/Terminate the rollup
 * of the SCOs finishes the activity workflow with the package's score.
 */
import { and, eq, sql } from "drizzle-orm";
import {
  cmiValueError,
  isKeptCmiElement,
  rollup,
  scoOutcome,
  type ScormItem,
  type ScormManifest,
} from "../../domain/scorm";
import type { ScormCommit, ScormCommitResult, ScormRuntime, ScormSco } from "../../domain/contract/scorm";
import { ActivityWorkflowState } from "../../domain/vocabulary";
import type { Principal } from "../context";
import type { Db } from "../db/client";
import {
  activities,
  activityParts,
  activityRecords,
  activityWorkflows,
  scormAttempts,
  scormPackages,
} from "../db/schema";
import { finishActivityWorkflows } from "../commands/workflows";
import { ApiError, message, notFound } from "../errors";

/** The package an activity workflow runs, with the activity; null when its activity holds no package. */
async function packageOf(db: Db, objectiveWorkflowId: string, activityWorkflowId: string) {
  const [row] = await db
    .select({ aw: activityWorkflows, activity: activities, pkg: scormPackages })
    .from(activityWorkflows)
    .innerJoin(activityParts, eq(activityParts.id, activityWorkflows.activityPartId))
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .innerJoin(scormPackages, eq(scormPackages.id, sql`(${activities.content}->'scorm'->>'packageId')::uuid`))
    .where(
      and(eq(activityWorkflows.id, activityWorkflowId), eq(activityWorkflows.objectiveWorkflowId, objectiveWorkflowId)),
    )
    .limit(1);
  return row ?? null;
}

function scosOf(items: ScormItem[], depth = 0): { item: ScormItem; depth: number }[] {
  return items.flatMap((item) => [
    ...(item.launch ? [{ item, depth }] : []),
    ...scosOf(item.children, depth + (item.launch ? 1 : 1)),
  ]);
}

/** The player's data: the package's SCOs in order with what the learner left in each. */
export async function loadScormRuntime(db: Db, workflowId: string, activityWorkflowId: string): Promise<ScormRuntime> {
  const found = await packageOf(db, workflowId, activityWorkflowId);
  if (!found) throw notFound("SCORM package");
  const attempts = await db
    .select()
    .from(scormAttempts)
    .where(eq(scormAttempts.activityWorkflowId, activityWorkflowId));
  const byId = new Map(attempts.map((a) => [a.scoId, a]));
  const manifest = found.pkg.manifest as ScormManifest;
  const scos: ScormSco[] = scosOf(manifest.items).map(({ item, depth }) => {
    const a = byId.get(item.identifier);
    const cmi = a?.cmi ?? {};
    return {
      id: item.identifier,
      title: item.title,
      launch: item.launch!,
      depth,
      launchData: item.launchData,
      masteryScore: item.masteryScore,
      timeLimit: item.timeLimit,
      cmi,
      sequence: a?.sequence ?? 0,
      completed: scoOutcome(manifest.version, cmi, item.masteryScore).completed,
    };
  });
  return {
    activityId: found.activity.id,
    activityWorkflowId,
    version: manifest.version,
    title: found.pkg.title,
    controlMode: manifest.controlMode,
    scos,
  };
}

/** Applies one commit (see the file's comment); refuses bad values with the runtime's error codes. */
export async function applyScormCommit(
  db: Db,
  user: Principal,
  workflowId: string,
  activityWorkflowId: string,
  commit: ScormCommit,
  now: Date,
): Promise<ScormCommitResult> {
  const found = await packageOf(db, workflowId, activityWorkflowId);
  if (!found) throw notFound("SCORM package");
  const manifest = found.pkg.manifest as ScormManifest;
  const scos = scosOf(manifest.items).map((s) => s.item);
  const sco = scos.find((s) => s.identifier === commit.scoId);
  if (!sco) throw new ApiError(404, { scoId: [message("notFound", "The package has no such SCO.")] });
  const errors: Record<string, ReturnType<typeof message>[]> = {};
  for (const [element, value] of Object.entries(commit.cmi)) {
    const code = cmiValueError(manifest.version, element, value);
    if (code) errors[`cmi.${element}`] = [message(`scorm.${code}`, `${element}: SCORM error ${code}`, { code })];
  }
  if (Object.keys(errors).length > 0) throw new ApiError(400, errors);
  if (found.aw.state !== ActivityWorkflowState.inProgress)
    throw new ApiError(409, { "": [message("activityFinished", "This activity is already finished.")] });

  const kept = Object.fromEntries(Object.entries(commit.cmi).filter(([e]) => isKeptCmiElement(manifest.version, e)));
  const [applied] = await db
    .insert(scormAttempts)
    .values({ activityWorkflowId, scoId: sco.identifier, cmi: kept, sequence: commit.sequence, updatedAt: now })
    .onConflictDoUpdate({
      target: [scormAttempts.activityWorkflowId, scormAttempts.scoId],
      set: { cmi: kept, sequence: commit.sequence, updatedAt: now },
      setWhere: sql`${scormAttempts.sequence} < ${commit.sequence}`,
    })
    .returning({ sequence: scormAttempts.sequence });
  if (!applied) {
    const [current] = await db
      .select({ sequence: scormAttempts.sequence })
      .from(scormAttempts)
      .where(and(eq(scormAttempts.activityWorkflowId, activityWorkflowId), eq(scormAttempts.scoId, sco.identifier)));
    return { applied: false, sequence: current?.sequence ?? 0, finished: false };
  }
  if (!commit.finish) return { applied: true, sequence: commit.sequence, finished: false };

  // LMSFinish/Terminate: the rollup over every SCO decides whether the activity is done.
  const attempts = await db
    .select()
    .from(scormAttempts)
    .where(eq(scormAttempts.activityWorkflowId, activityWorkflowId));
  const cmiOf = new Map(attempts.map((a) => [a.scoId, a.cmi]));
  const result = rollup(scos.map((s) => scoOutcome(manifest.version, cmiOf.get(s.identifier) ?? {}, s.masteryScore)));
  if (!result.completed) return { applied: true, sequence: commit.sequence, finished: false };
  await db.transaction(async (tx) => {
    await finishActivityWorkflows(tx, user, workflowId, [activityWorkflowId], now);
    const maxScore = found.activity.maxScore;
    if (maxScore !== null && result.scaled !== null) {
      // The package grades itself (as an LTI tool's grading does): its score is the record's.
      await tx
        .update(activityRecords)
        .set({ score: Math.round(result.scaled * maxScore * 100) / 100, passed: result.passed })
        .where(eq(activityRecords.activityWorkflowId, activityWorkflowId));
      await tx
        .update(activityWorkflows)
        .set({ state: ActivityWorkflowState.finished })
        .where(eq(activityWorkflows.id, activityWorkflowId));
    } else if (result.passed !== null) {
      await tx
        .update(activityRecords)
        .set({ passed: result.passed })
        .where(eq(activityRecords.activityWorkflowId, activityWorkflowId));
    }
  });
  return { applied: true, sequence: commit.sequence, finished: true };
}
