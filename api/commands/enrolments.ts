// Commands: what a command (spec 7.7) does inside the transaction `runCommand` gives it — check the rules, write,
// return the command's data; a refusal is an ApiError. This one: self-enrollment (spec 7.3).
import { and, eq, isNull, or } from "drizzle-orm";
import { ObjectiveState } from "../../domain/vocabulary";
import type { Principal } from "../context";
import type { Tx } from "../db/client";
import { objectiveAccesses, objectives, objectiveWorkflowAggregates as owa, selfEnrollments } from "../db/schema";
import { ApiError, message } from "../errors";

/**
 * Spec 7.3 create-self-enrollments: adds a listed (or assigned) course that allows it to the learner's
 * courses — a new aggregate, or the existing one marked self-enrolled. Idempotent by the command id.
 */
export async function createSelfEnrollment(tx: Tx, user: Principal, body: { id: string; objectiveAccessId: string }) {
  const rows = await tx
    .select({ access: objectiveAccesses, o: objectives })
    .from(objectiveAccesses)
    .innerJoin(objectives, eq(objectives.id, objectiveAccesses.objectiveId))
    .where(
      and(
        eq(objectiveAccesses.id, body.objectiveAccessId),
        eq(objectiveAccesses.tenantId, user.tenantId),
        or(isNull(objectiveAccesses.userId), eq(objectiveAccesses.userId, user.id)),
      ),
    )
    .limit(1);
  const row = rows[0];
  if (!row) throw new ApiError(404, { objectiveAccessId: [message("notFound", "The course was not found.")] });
  const { access, o } = row;
  const listed =
    access.userId === user.id ||
    ((o.inCatalog || o.isPublic) && o.state === ObjectiveState.ready && o.activityState !== ObjectiveState.archived);
  if (!listed || !o.allowSelfEnrollment) {
    throw new ApiError(422, {
      "": [message("selfEnrollmentNotAllowed", "This course cannot be added to your courses.")],
    });
  }
  const existing = await tx
    .select()
    .from(owa)
    .where(and(eq(owa.userId, user.id), eq(owa.objectiveId, o.id)))
    .limit(1);
  let aggregateId: string;
  if (existing[0]) {
    aggregateId = existing[0].id;
    if (!existing[0].isSelfEnrolled) await tx.update(owa).set({ isSelfEnrolled: true }).where(eq(owa.id, aggregateId));
  } else {
    const [created] = await tx
      .insert(owa)
      .values({
        tenantId: user.tenantId,
        userId: user.id,
        objectiveId: o.id,
        objectiveAccessId: access.id,
        termId: access.termId,
        isMandatory: access.isMandatory,
        isSelfEnrolled: true,
        retake: access.retake,
        dueDate: access.dueDate,
        availabilityDate: access.availabilityDate,
        availabilityEndDate: access.availabilityEndDate,
        gradeRevealPolicy: access.gradeRevealPolicy,
        gradeRevealDate: access.gradeRevealDate,
      })
      .returning({ id: owa.id });
    aggregateId = created.id;
  }
  await tx
    .insert(selfEnrollments)
    .values({ id: body.id, userId: user.id, objectiveAccessId: access.id, aggregateId })
    .onConflictDoNothing();
  return { id: body.id, objectiveAccessId: access.id, aggregateId, objectiveId: o.id };
}
