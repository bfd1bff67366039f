/**
 * What a learner recipe's numbers become in the database: days relative to the day of seeding, the
 * enrolment columns an access and an aggregate share, and a raw score on a grading scale (the record's
 * normalized score, grade and passed). Pure: no database.
 */
import type { AccessSettings } from "./content/schemas";

export const DAY_MS = 86_400_000;

/** `now` shifted by a number of days (negative = past); null for undefined. */
export function daysFrom(now: Date, days: number | undefined): Date | null {
  return days === undefined ? null : new Date(now.getTime() + days * DAY_MS);
}

/** The UTC midnight that starts the day of `at`: a date without a time (decision 022). */
function utcDay(at: Date | null): Date | null {
  return at ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate())) : null;
}

/** The enrolment columns shared by accesses and aggregates. */
export function accessColumns(settings: AccessSettings | undefined, now: Date, termIds: Record<string, string>) {
  const a = settings ?? {};
  return {
    termId: a.term ? termIds[a.term] : null,
    isMandatory: a.mandatory ?? false,
    retake: a.retake ?? false,
    dueDate: a.dueOnDay ? utcDay(daysFrom(now, a.dueIn)) : daysFrom(now, a.dueIn),
    availabilityDate: daysFrom(now, a.availableIn),
    availabilityEndDate: daysFrom(now, a.availableUntil),
    gradeRevealPolicy: a.gradeReveal ?? "none",
    gradeRevealDate: daysFrom(now, a.gradeRevealIn),
  };
}

export interface ScaleForGrading {
  maxScore: number;
  normalizedPassingScore: number;
  grades: { id: string; normalizedMinScore: number }[];
}

/**
 * The record fields for a raw score on a scale: normalizedScore = score / maxScore, the grade with the
 * highest normalizedMinScore ≤ normalizedScore, passed = normalizedScore ≥ normalizedPassingScore.
 * A null score (or no scale) gives an unresolved record (passed null).
 */
export function gradeScore(
  scale: ScaleForGrading | null,
  score: number | null,
): {
  score: number | null;
  maxScore: number | null;
  normalizedScore: number | null;
  gradeId: string | null;
  passed: boolean | null;
} {
  if (!scale) return { score: null, maxScore: null, normalizedScore: null, gradeId: null, passed: null };
  if (score === null)
    return { score: null, maxScore: scale.maxScore, normalizedScore: null, gradeId: null, passed: null };
  const normalizedScore = score / scale.maxScore;
  let best: { id: string; normalizedMinScore: number } | null = null;
  for (const g of scale.grades)
    if (g.normalizedMinScore <= normalizedScore && (!best || g.normalizedMinScore > best.normalizedMinScore)) best = g;
  return {
    score,
    maxScore: scale.maxScore,
    normalizedScore,
    gradeId: best?.id ?? null,
    passed: normalizedScore >= scale.normalizedPassingScore,
  };
}
