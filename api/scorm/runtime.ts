/**
 * The SCORM run-time on the server (issue 15 items 2–4, issue 30, decisions 025 and 040): the package
 * and what each SCO's next launch starts from (entry, attempt, data, total time, the manifest's values),
 * and one commit of a SCO — validated element by element against the version's data model (a bad
 * value is refused with the runtime's error code, never a 500; durations are read by the server's own
 * strict rule, not the browser library's), applied only when its sequence number is above the last
 * applied one and it belongs to the SCO's current attempt (one statement: a duplicate, late or stale
 * commit changes nothing, on PGlite and PostgreSQL alike). At LMSFinish/Terminate the session time is
 * added to the attempt's total, the attempt is suspended or ended as cmi.exit and adl.nav.request say,
 * and the rollup of the SCOs finishes the activity workflow with the package's score.
 */
import { and, eq, inArray, ne, or, sql } from "drizzle-orm";
import {
  cmiValueError,
  isKeptCmiElement,
  rollup,
  SCORM_DEFAULT_MAX_SCORE,
  scoOutcome,
  type ScormItem,
  type ScormManifest,
} from "../../domain/scorm";
import { launchEntry, sessionEnding, statusAtFinish } from "../../domain/scorm-attempt";
import { formatTotalTime, sessionCentis } from "../../domain/scorm-time";
import type { ScormCommit, ScormCommitResult, ScormRuntime, ScormSco } from "../../domain/contract/scorm";
import { ActivityType, ActivityWorkflowState } from "../../domain/vocabulary";
import type { Principal } from "../context";
import type { Db } from "../db/client";
import {
  activities,
  activityParts,
  activityRecords,
  activityWorkflows,
  scormAttempts,
  scormPackages,
  scormSharedData,
  users,
} from "../db/schema";
import { finishActivityWorkflows } from "../commands/workflows";
import { ApiError, message, notFound } from "../errors";
import { CONTENT_TOKEN_SECONDS, signContentGrant } from "./content-token";

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

/** Whether any of these activity workflows runs a SCORM package (the activity's type or its content says so). */
export async function runsScormPackage(db: Db, activityWorkflowIds: string[]): Promise<boolean> {
  if (activityWorkflowIds.length === 0) return false;
  const [row] = await db
    .select({ id: activityWorkflows.id })
    .from(activityWorkflows)
    .innerJoin(activityParts, eq(activityParts.id, activityWorkflows.activityPartId))
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .where(
      and(
        inArray(activityWorkflows.id, activityWorkflowIds),
        or(eq(activities.type, ActivityType.Scorm), sql`${activities.content} ? 'scorm'`),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The launchable items in tree order with their depth (the table of contents). */
function scosOf(items: ScormItem[], depth = 0): { item: ScormItem; depth: number }[] {
  return items.flatMap((item) => [...(item.launch ? [{ item, depth }] : []), ...scosOf(item.children, depth + 1)]);
}

/** The items that report (assets never call the run-time, so they do not count in the rollup). */
const reporting = (items: ScormItem[]) => scosOf(items).filter(({ item }) => item.scormType !== "asset");

type AttemptRow = typeof scormAttempts.$inferSelect;

const exitOf = (version: ScormManifest["version"], cmi: Record<string, string>) =>
  (version === "1.2" ? cmi["cmi.core.exit"] : cmi["cmi.exit"]) ?? "";

/** The attempt a launch of a SCO commits to: the next one when its 2004 attempt ended, else the current. */
function launchAttempt(version: ScormManifest["version"], row: AttemptRow | undefined) {
  const entry = launchEntry(version, row ? { state: row.state, exit: exitOf(version, row.cmi) } : null);
  return { ...entry, attempt: !row ? 1 : entry.fresh ? row.attempt + 1 : row.attempt };
}

/** The player's data: the package's SCOs in order with what each one's next launch starts from. */
export async function loadScormRuntime(
  db: Db,
  user: Principal,
  workflowId: string,
  activityWorkflowId: string,
  options: { contentKey: Buffer; now: Date },
): Promise<ScormRuntime> {
  const found = await packageOf(db, workflowId, activityWorkflowId);
  if (!found) throw notFound("SCORM package");
  const [attempts, shared, [learner]] = await Promise.all([
    db.select().from(scormAttempts).where(eq(scormAttempts.activityWorkflowId, activityWorkflowId)),
    db
      .select({ targetId: scormSharedData.targetId, store: scormSharedData.store })
      .from(scormSharedData)
      .where(and(eq(scormSharedData.userId, user.id), eq(scormSharedData.packageId, found.pkg.id))),
    db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, user.id)),
  ]);
  const byId = new Map(attempts.map((a) => [a.scoId, a]));
  const manifest = found.pkg.manifest as ScormManifest;
  const version = manifest.version;
  const scos: ScormSco[] = scosOf(manifest.items).map(({ item, depth }) => {
    const row = byId.get(item.identifier);
    const next = launchAttempt(version, row);
    // A new attempt starts empty; a continued one gets its data without the last session's time
    // (cmi.session_time is write-only: reloading it reported the previous session again, issue 30 item 1).
    const cmi = next.fresh || !row ? {} : withoutSessionTime(row.cmi);
    const rules = { ...item, completionThreshold: item.completionThreshold ?? null };
    return {
      id: item.identifier,
      title: item.title,
      launch: item.launch!,
      depth,
      asset: item.scormType === "asset",
      entry: next.entry,
      attempt: next.attempt,
      cmi,
      totalTime: formatTotalTime(version, next.fresh || !row ? 0 : row.totalCentis),
      sequence: row?.sequence ?? 0,
      // An asset never reports: launched once, it counts as completed (its launch is recorded as a commit).
      completed: row ? item.scormType === "asset" || scoOutcome(version, row.cmi, rules).completed : false,
      launchData: item.launchData,
      masteryScore: version === "1.2" ? item.masteryScore : null,
      scaledPassingScore: item.scaledPassingScore ?? null,
      completionThreshold: item.completionThreshold ?? null,
      timeLimit: item.timeLimit,
      timeLimitAction: item.timeLimitAction,
      sharedData: item.sharedData ?? [],
    };
  });
  // A visit resumes where the learner suspended the package (suspendAll), else at the first open SCO.
  const suspendedAll = attempts
    .filter((a) => a.suspendedAllAt && a.state === "suspended")
    .sort((a, b) => b.suspendedAllAt!.getTime() - a.suspendedAllAt!.getTime())[0];
  const resumeAt = suspendedAll ? scos.findIndex((s) => s.id === suspendedAll.scoId) : -1;
  const firstOpen = scos.findIndex((s) => !s.completed);
  return {
    activityId: found.activity.id,
    activityWorkflowId,
    version,
    title: found.pkg.title,
    controlMode: manifest.controlMode,
    scos,
    start: Math.max(0, resumeAt >= 0 ? resumeAt : firstOpen),
    learner: { id: user.id, name: learner ? `${learner.lastName}, ${learner.firstName}` : "" },
    sharedData: Object.fromEntries(shared.map((s) => [s.targetId, s.store])),
    contentToken: signContentGrant(options.contentKey, {
      packageId: found.pkg.id,
      activityId: found.activity.id,
      userId: user.id,
      expires: Math.floor(options.now.getTime() / 1000) + CONTENT_TOKEN_SECONDS,
    }),
  };
}

function withoutSessionTime(cmi: Record<string, string>): Record<string, string> {
  const { "cmi.session_time": _s, "cmi.core.session_time": _c, ...rest } = cmi;
  return rest;
}

type Errors = Record<string, ReturnType<typeof message>[]>;

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
  const version = manifest.version;
  const sco = scosOf(manifest.items)
    .map((s) => s.item)
    .find((s) => s.identifier === commit.scoId);
  if (!sco) throw new ApiError(404, { scoId: [message("notFound", "The package has no such SCO.")] });
  const errors: Errors = {};
  const refuse = (field: string, code: string) =>
    (errors[field] = [message(`scorm.${code}`, `${field}: SCORM error ${code}`, { code })]);
  for (const [element, value] of Object.entries(commit.cmi)) {
    const code = cmiValueError(version, element, value);
    if (code) refuse(`cmi.${element}`, code);
  }
  // adl.data: only the buckets the SCO's item maps with write permission (RTE 4.3: 404 read-only).
  const writable = new Set((sco.sharedData ?? []).filter((m) => m.write).map((m) => m.targetId));
  for (const targetId of Object.keys(commit.shared ?? {}))
    if (version === "1.2" || !writable.has(targetId)) refuse(`shared.${targetId}`, version === "1.2" ? "401" : "404");
  if (Object.keys(errors).length > 0) throw new ApiError(400, errors);
  if (found.aw.state !== ActivityWorkflowState.inProgress)
    throw new ApiError(409, { "": [message("activityFinished", "This activity is already finished.")] });

  const sent = Object.fromEntries(Object.entries(commit.cmi).filter(([e]) => isKeptCmiElement(version, e)));
  const ending = commit.finish ? sessionEnding(version, exitOf(version, sent), commit.navRequest ?? "") : null;
  const kept =
    ending && version === "1.2" ? statusAtFinish(sent, sco.masteryScore ?? null, exitOf(version, sent)) : sent;
  // The session's time, as the server reads it (a SCO that set none spent no time it reported).
  const sessionTime = kept[version === "1.2" ? "cmi.core.session_time" : "cmi.session_time"];
  const session = ending && sessionTime ? (sessionCentis(version, sessionTime) ?? 0) : 0;
  // A commit of the current attempt is taken while it goes on (a 1.2 attempt never ends); one of the
  // next attempt only when the current one ended (2004); never a late one of an attempt that ended.
  const sameAttemptOpen = version === "2004" ? sql`${scormAttempts.state} <> 'ended'` : sql`true`;
  const nextAttemptAllowed = version === "2004" ? sql`${scormAttempts.state} = 'ended'` : sql`false`;
  const [applied] = await db
    .insert(scormAttempts)
    .values({
      activityWorkflowId,
      scoId: sco.identifier,
      cmi: kept,
      sequence: commit.sequence,
      attempt: commit.attempt,
      state: ending?.state ?? "open",
      totalCentis: session,
      suspendedAllAt: ending?.suspendAll ? now : null,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [scormAttempts.activityWorkflowId, scormAttempts.scoId],
      set: {
        cmi: kept,
        sequence: commit.sequence,
        // Same attempt: add the session; the next attempt: start from it.
        totalCentis: sql`case when ${scormAttempts.attempt} = ${commit.attempt} then ${scormAttempts.totalCentis} else 0 end + ${session}`,
        attempt: commit.attempt,
        state: ending
          ? ending.state
          : sql`case when ${scormAttempts.attempt} = ${commit.attempt} then ${scormAttempts.state} else 'open' end`,
        suspendedAllAt: ending ? (ending.suspendAll ? now : null) : sql`${scormAttempts.suspendedAllAt}`,
        updatedAt: now,
      },
      setWhere: sql`${scormAttempts.sequence} < ${commit.sequence} and ((${scormAttempts.attempt} = ${commit.attempt} and ${sameAttemptOpen}) or (${scormAttempts.attempt} + 1 = ${commit.attempt} and ${nextAttemptAllowed}))`,
    })
    .returning({ sequence: scormAttempts.sequence });
  if (!applied) {
    const [current] = await db
      .select({ sequence: scormAttempts.sequence })
      .from(scormAttempts)
      .where(and(eq(scormAttempts.activityWorkflowId, activityWorkflowId), eq(scormAttempts.scoId, sco.identifier)));
    return { applied: false, sequence: current?.sequence ?? 0, finished: false };
  }
  const sharedWrites = Object.entries(commit.shared ?? {});
  if (sharedWrites.length > 0)
    await db
      .insert(scormSharedData)
      .values(
        sharedWrites.map(([targetId, store]) => ({
          userId: user.id,
          packageId: found.pkg.id,
          targetId,
          store,
          updatedAt: now,
        })),
      )
      .onConflictDoUpdate({
        target: [scormSharedData.userId, scormSharedData.packageId, scormSharedData.targetId],
        set: { store: sql`excluded.store`, updatedAt: now },
      });
  if (!ending) return { applied: true, sequence: commit.sequence, finished: false };

  if (version === "2004" && (ending.exitAll || ending.suspendAll)) {
    // exitAll (time-out, logout…) ends every SCO's attempt; suspendAll makes this SCO the only resume point.
    await db
      .update(scormAttempts)
      .set(ending.exitAll ? { state: "ended", suspendedAllAt: null } : { suspendedAllAt: null })
      .where(
        and(
          eq(scormAttempts.activityWorkflowId, activityWorkflowId),
          ne(scormAttempts.scoId, sco.identifier),
          ending.exitAll ? inArray(scormAttempts.state, ["open", "suspended"]) : undefined,
        ),
      );
  }

  // LMSFinish/Terminate: the rollup over every reporting SCO decides whether the activity is done.
  const attempts = await db
    .select()
    .from(scormAttempts)
    .where(eq(scormAttempts.activityWorkflowId, activityWorkflowId));
  const cmiOf = new Map(attempts.map((a) => [a.scoId, a.cmi]));
  const result = rollup(
    reporting(manifest.items).map(({ item }) =>
      scoOutcome(version, cmiOf.get(item.identifier) ?? {}, {
        ...item,
        completionThreshold: item.completionThreshold ?? null,
      }),
    ),
  );
  if (!result.completed) return { applied: true, sequence: commit.sequence, finished: false };
  await db.transaction(async (tx) => {
    await finishActivityWorkflows(tx, user, workflowId, [activityWorkflowId], now);
    // The package grades itself (as an LTI tool's grading does): its score, out of the activity's
    // maximum (100 when it has none), is the record's. Nobody else grades it, so the activity is
    // finished with the score, or without one when the package reported none.
    const maxScore = found.activity.maxScore ?? SCORM_DEFAULT_MAX_SCORE;
    const score = result.scaled === null ? {} : { score: Math.round(result.scaled * maxScore * 100) / 100 };
    if (result.scaled !== null || result.passed !== null)
      await tx
        .update(activityRecords)
        .set({ ...score, passed: result.passed })
        .where(eq(activityRecords.activityWorkflowId, activityWorkflowId));
    await tx
      .update(activityWorkflows)
      .set({ state: ActivityWorkflowState.finished })
      .where(eq(activityWorkflows.id, activityWorkflowId));
  });
  return { applied: true, sequence: commit.sequence, finished: true };
}
