/**
 * Where an imported package goes: the course named by its code (in the tenant, when one is given) and the
 * activity named by its id, or the course's first top-level activity. The SCORM and the QTI imports share
 * it; a refusal is a ScormPackageError (404 unknown course or activity, 409 a code two tenants use, 422 a
 * module).
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { activities, activityParts, objectives } from "../db/schema";
import { ActivityKind } from "../../domain/vocabulary";
import { ScormPackageError } from "./manifest";

type Queryable = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

export async function importTarget(
  db: Queryable,
  options: { courseCode: string; tenantId?: string; activityId?: string },
  what: "a package" | "a test",
) {
  const [course, second] = await db
    .select({ id: objectives.id, tenantId: objectives.tenantId })
    .from(objectives)
    .where(
      and(
        eq(objectives.code, options.courseCode),
        options.tenantId ? eq(objectives.tenantId, options.tenantId) : undefined,
      ),
    )
    .limit(2);
  if (second) throw new ScormPackageError("ambiguousCourse", `Two tenants have a course "${options.courseCode}".`, 409);
  if (!course) throw new ScormPackageError("unknownCourse", `No course has the code "${options.courseCode}".`, 404);
  const [part] = await db
    .select({
      activityId: activityParts.activityId,
      kind: activities.kind,
      maxScore: activities.maxScore,
      parentPartId: activityParts.parentPartId,
    })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .where(
      and(
        eq(activityParts.objectiveId, course.id),
        options.activityId ? eq(activityParts.activityId, options.activityId) : isNull(activityParts.parentPartId),
      ),
    )
    .limit(1);
  if (!part) throw new ScormPackageError("unknownActivity", "The activity is not part of that course.", 404);
  if (part.kind === ActivityKind.composite)
    throw new ScormPackageError("compositeActivity", `A module cannot hold ${what}: name one of its activities.`);
  return { course, part };
}
