import type { GradeActivity, GradeCourse } from "#domain/contract/grades";
import { pointsShown } from "#domain/grades";
import { progressPercent } from "#domain/courses";
import { isUnresolved, workflowStateLabelKey } from "#domain/lifecycle";
import { ObjectiveWorkflowState } from "#domain/vocabulary";
import type { DateFormatter } from "./format.server";
import { scoreView } from "./course-page.server";
import type { GradeActivityRow, GradeRow } from "~/common/views/grades";

/**
 * What the grades page shows of one course (issue 31 item 1): texts are chosen by the component from
 * keys; dates are already in the learner's zone; scores are the API's, already through spec 4.7.
 */
export function toGradeRow(c: GradeCourse, fmt: DateFormatter): GradeRow {
  const wf = c.lastObjectiveWorkflow;
  const r = c.lastObjectiveRecord;
  const hidden = Boolean(r?.resultsHidden);
  return {
    id: c.objective.id,
    name: c.objective.name,
    code: c.objective.code,
    mandatory: c.isMandatory,
    stateKey: workflowStateLabelKey(wf?.state ?? null),
    progress: progressPercent(wf?.progress ?? r?.progress ?? 0),
    result:
      r && !hidden
        ? {
            score: scoreView(r),
            grade: r.grade ? { name: r.grade.name, color: r.grade.color } : null,
            outcome:
              r.passed === null ||
              isUnresolved(wf ? { state: wf.state } : { state: ObjectiveWorkflowState.finished }, r)
                ? "pending"
                : r.passed
                  ? "passed"
                  : "failed",
          }
        : null,
    hidden,
    /** While hidden by a reveal date (spec 4.7 afterDate), the date it shows from. */
    hiddenUntil: hidden && c.gradeRevealPolicy === "afterDate" ? fmt.dateTime(c.gradeRevealDate) : null,
    completed: fmt.date(r?.finished ?? wf?.finished ?? null),
    activities: c.activities.map((a) => toGradeActivityRow(a, fmt)),
  };
}

function toGradeActivityRow(a: GradeActivity, fmt: DateFormatter): GradeActivityRow {
  const scored = !a.resultsHidden && a.score !== null;
  return {
    id: a.activityPathId,
    name: a.name,
    status: a.resultsHidden ? "hidden" : scored ? "scored" : a.finished ? "awaitingGrading" : "notDone",
    score: scored
      ? scoreView({
          score: a.score,
          maxScore: a.maxScore,
          normalizedScore: a.maxScore ? (a.score as number) / a.maxScore : a.passed ? 1 : 0,
        })
      : null,
    passed: a.resultsHidden ? null : a.passed,
    finished: fmt.date(a.finished),
  };
}

// ---------------------------------------------------------------------------------------------
// CSV export (RFC 4180)
// ---------------------------------------------------------------------------------------------

/**
 * A cell as RFC 4180 writes it, and never a formula: a text that a spreadsheet would run (starting
 * with =, +, -, @, a tab or a carriage return — a course named "=HYPERLINK(…)") is kept as text with a
 * leading apostrophe (OWASP's CSV injection advice). Numbers are written as numbers.
 */
function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The learner's grades as CSV in their language: one row per course, then one per graded activity
 * under it (the course's name repeated, the activity named). Points only where the max score is not 1
 * (spec 2.5); nothing hidden (spec 4.7): a hidden result reads "Hidden". UTF-8 with a byte-order mark,
 * so spreadsheet programs read accents and scripts right.
 */
/**
 * A calendar day as ISO 8601 (YYYY-MM-DD) in the learner's time zone: what a spreadsheet reads as a date
 * and sorts, in every language (a formatted "2 Dec 2026" is text to it).
 */
export function isoDay(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

export function gradesCsv(courses: GradeCourse[], t: (key: string) => string, timeZone: string): string {
  const head = [
    "course",
    "code",
    "activity",
    "status",
    "progress",
    "grade",
    "score",
    "points",
    "maxPoints",
    "result",
    "completed",
  ].map((k) => t(`grades.csv.${k}`));
  const lines = [head.map(csvCell).join(",")];
  const outcome = (passed: boolean | null) =>
    passed === true ? t("grades.passed") : passed === false ? t("grades.failed") : "";
  for (const c of courses) {
    const r = c.lastObjectiveRecord;
    const hidden = Boolean(r?.resultsHidden);
    const points = r && !hidden && pointsShown(r.maxScore);
    lines.push(
      [
        c.objective.name,
        c.objective.code,
        "",
        t(workflowStateLabelKey(c.lastObjectiveWorkflow?.state ?? null)),
        progressPercent(c.lastObjectiveWorkflow?.progress ?? r?.progress ?? 0),
        hidden ? t("grades.hidden") : (r?.grade?.name ?? ""),
        hidden ? t("grades.hidden") : r?.normalizedScore != null ? Math.round(r.normalizedScore * 100) : "",
        points ? r.score : "",
        points ? r.maxScore : "",
        hidden ? t("grades.hidden") : outcome(r?.passed ?? null),
        isoDay(r?.finished ?? c.lastObjectiveWorkflow?.finished ?? null, timeZone),
      ]
        .map(csvCell)
        .join(","),
    );
    for (const a of c.activities) {
      const shown = !a.resultsHidden && a.score !== null;
      const activityPoints = shown && pointsShown(a.maxScore);
      lines.push(
        [
          c.objective.name,
          c.objective.code,
          a.name,
          "",
          "",
          "",
          a.resultsHidden
            ? t("grades.hidden")
            : shown && a.maxScore
              ? Math.round(((a.score as number) / a.maxScore) * 100)
              : "",
          activityPoints ? a.score : "",
          activityPoints ? a.maxScore : "",
          a.resultsHidden ? t("grades.hidden") : outcome(a.passed),
          isoDay(a.finished, timeZone),
        ]
          .map(csvCell)
          .join(","),
      );
    }
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
