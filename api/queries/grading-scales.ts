// Queries: reads and writes the handlers share, grouped by resource. This one: grading scales with their grades.
import { inArray } from "drizzle-orm";
import type { GradingScale } from "../../domain/contract/courses";
import type { Db, Tx } from "../db/client";
import { grades, gradingScales } from "../db/schema";

export async function loadScales(db: Db | Tx, ids: string[]): Promise<GradingScale[]> {
  if (ids.length === 0) return [];
  const [scales, gradeRows] = await Promise.all([
    db.select().from(gradingScales).where(inArray(gradingScales.id, ids)),
    db.select().from(grades).where(inArray(grades.gradingScaleId, ids)).orderBy(grades.normalizedMinScore),
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
