/**
 * Test support (decision 014) for packages the demo does not hold: a course of its own whose one
 * activity runs the zip in the request, imported by the product's own import code, with the test's
 * learner enrolled and the course started. The browser tests bring packages written to probe the
 * product (a hostile package, issue 29 item 1) and ADL's conformance packages.
 */
import { rm } from "node:fs/promises";
import { eq } from "drizzle-orm";
import type { Db } from "../api/db/client";
import type { FileStore } from "../api/files/object-store";
import * as s from "../api/db/schema";
import { ActivityContentType, ActivityKind, ActivityType, ObjectiveWorkflowState } from "../domain/vocabulary";
import { importScormPackage, saveUpload, SCORM_LIMITS } from "../api/scorm/import";
import { readQtiZip, storeQtiPackage } from "../api/assessment/import";

type CourseInput = {
  learnerId: string;
  name: string;
  body: ReadableStream<Uint8Array> | null;
  store: FileStore;
  now: Date;
};

export const createScormCourse = (db: Db, input: CourseInput) =>
  createPackageCourse(db, input, ActivityType.Scorm, (zipPath, tenantId, code) =>
    importScormPackage(db, { zipPath, store: input.store, tenantId, courseCode: code }),
  );

/** Decision 068: the same with a QTI package (a test the server delivers and scores), e.g. one with an upload. */
export const createQtiCourse = (db: Db, input: CourseInput) =>
  createPackageCourse(db, input, ActivityType.Assessment, async (zipPath, tenantId, code) => {
    await storeQtiPackage(db, await readQtiZip(zipPath, input.name, SCORM_LIMITS), { tenantId, courseCode: code });
  });

async function createPackageCourse(
  db: Db,
  input: CourseInput,
  type: ActivityType,
  importInto: (zipPath: string, tenantId: string, code: string) => Promise<unknown>,
): Promise<{ courseId: string; code: string; name: string }> {
  const [learner] = await db
    .select({ tenantId: s.users.tenantId })
    .from(s.users)
    .where(eq(s.users.id, input.learnerId));
  if (!learner) throw new Error("unknown learner");
  const tenantId = learner.tenantId;
  const code = `T-${crypto.randomUUID().slice(0, 8)}`;
  const [course] = await db
    .insert(s.objectives)
    .values({ tenantId, name: input.name, code, description: "A package under test.", inCatalog: false })
    .returning();
  const [access] = await db.insert(s.objectiveAccesses).values({ tenantId, objectiveId: course.id }).returning();
  const [activity] = await db
    .insert(s.activities)
    .values({
      tenantId,
      name: input.name,
      kind: ActivityKind.lti,
      contentType: ActivityContentType.Lti13,
      type,
      maxScore: 10,
    })
    .returning();
  await db.insert(s.activityParts).values({ objectiveId: course.id, activityId: activity.id, axis: "0" });
  const zipPath = await saveUpload(input.body, 50 * 1024 * 1024);
  try {
    await importInto(zipPath, tenantId, code);
  } finally {
    await rm(zipPath, { force: true });
  }
  const [aggregate] = await db
    .insert(s.objectiveWorkflowAggregates)
    .values({
      tenantId,
      userId: input.learnerId,
      objectiveId: course.id,
      objectiveAccessId: access.id,
      isSelfEnrolled: true,
    })
    .returning();
  const workflowId = crypto.randomUUID();
  await db.insert(s.objectiveWorkflows).values({
    id: workflowId,
    aggregateId: aggregate.id,
    userId: input.learnerId,
    objectiveId: course.id,
    state: ObjectiveWorkflowState.inProgress,
    progress: 0,
    started: input.now,
  });
  await db
    .update(s.objectiveWorkflowAggregates)
    .set({ lastWorkflowId: workflowId, lastWorkflowState: ObjectiveWorkflowState.inProgress })
    .where(eq(s.objectiveWorkflowAggregates.id, aggregate.id));
  return { courseId: course.id, code, name: input.name };
}
