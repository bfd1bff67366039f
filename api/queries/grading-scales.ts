// Queries: reads and writes the handlers share, grouped by resource. This one: grading scales with their grades.
import { and, eq, inArray } from "drizzle-orm";
import type { GradingScale } from "../../domain/contract/courses";
import type { Db, Tx } from "../db/client";
import { grades, gradingScales } from "../db/schema";

/**
 * Grading scales by id, with their grades. With `tenantId` (every read a caller names the ids of),
 * only that tenant's scales: another tenant's id reads as unknown.
 */
export async function loadScales(db: Db | Tx, ids: string[], tenantId?: string): Promise<GradingScale[]> {
  if (ids.length === 0) return [];
  const scaleFilter = tenantId
    ? and(inArray(gradingScales.id, ids), eq(gradingScales.tenantId, tenantId))
    : inArray(gradingScales.id, ids);
  const scaleIds = tenantId ? db.select({ id: gradingScales.id }).from(gradingScales).where(scaleFilter) : ids;
  const [scales, gradeRows] = await Promise.all([
    db.select().from(gradingScales).where(scaleFilter),
    db.select().from(grades).where(inArray(grades.gradingScaleId, scaleIds)).orderBy(grades.normalizedMinScore),
  ]);
  return scales.map((s) => {
    const list = gradeRows
      .filter((g) => g.gradingScaleId === s.id)
      .map((g) => ({ id: g.id, name: g.name, color: g.color, normalizedMinScore: g.normalizedMinScore }));
    return {
      id: s.id,
      name: s.name,
      description: s.description,
      maxScore: s.maxScore,
      normalizedPassingScore: s.normalizedPassingScore,
      numberOfGrades: list.length,
      passingGradeId: s.passingGradeId,
      objectiveGrades: list,
    };
  });
}
