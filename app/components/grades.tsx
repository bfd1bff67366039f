import { Form, Link } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { GradeRow } from "~/common/views/grades";
import { ScoreBadge } from "./course-parts";

/** The sort menu of the grades page, a GET form that keeps the other filters (works without JavaScript). */
export function GradeSortForm({
  params,
  sorts,
  current,
}: {
  params: URLSearchParams;
  sorts: readonly string[];
  current: string;
}) {
  const { t } = useTranslation();
  return (
    <Form method="get" className="grade-sort">
      {[...params.entries()]
        .filter(([k]) => k !== "sort" && k !== "page")
        .map(([k, v], i) => (
          <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
        ))}
      <label htmlFor="grade-sort">{t("grades.sortLabel")}</label>
      <select id="grade-sort" name="sort" defaultValue={current} key={current}>
        {sorts.map((s) => (
          <option key={s} value={s}>
            {t(`grades.sorts.${s}`)}
          </option>
        ))}
      </select>
      <button type="submit" className="button">
        {t("grades.sortButton")}
      </button>
    </Form>
  );
}

/** A course's result: the score (points where spec 2.5 shows them), "hidden" while spec 4.7 hides it. */
function CourseResult({ row }: { row: GradeRow }) {
  const { t } = useTranslation();
  if (row.hidden)
    return <>{row.hiddenUntil ? t("grades.hiddenUntil", { date: row.hiddenUntil }) : t("grades.hidden")}</>;
  if (row.result?.score) return <ScoreBadge score={row.result.score} />;
  return <>{t("grades.noScore")}</>;
}

function Outcome({ row }: { row: GradeRow }) {
  const { t } = useTranslation();
  if (row.hidden) return <>{t("grades.hidden")}</>;
  if (!row.result) return <>—</>;
  if (row.result.outcome === "pending") return <>{t("grades.awaitingGrading")}</>;
  return <>{row.result.outcome === "passed" ? t("grades.passed") : t("grades.failed")}</>;
}

/** The graded activities of one course's attempt (score, result, when), every score through spec 4.7. */
function ActivityTable({ row }: { row: GradeRow }) {
  const { t } = useTranslation();
  if (row.activities.length === 0) return <p className="grade-course__none">{t("grades.noActivities")}</p>;
  return (
    // Scrolls inside its own box on a narrow phone: focusable and named, so a keyboard can scroll it.
    <div
      className="table-scroll"
      tabIndex={0}
      role="region"
      aria-label={t("grades.activitiesCaption", { course: row.name })}
    >
      <table className="grade-activities stack-on-phone">
        <caption className="visually-hidden">{t("grades.activitiesCaption", { course: row.name })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("grades.activity")}</th>
            <th scope="col">{t("grades.score")}</th>
            <th scope="col">{t("grades.result")}</th>
            <th scope="col">{t("grades.completed")}</th>
          </tr>
        </thead>
        <tbody>
          {row.activities.map((a) => (
            <tr key={a.id}>
              <th scope="row">{a.name}</th>
              <td data-label={t("grades.score")}>
                {a.status === "scored" && a.score ? (
                  <ScoreBadge score={a.score} />
                ) : (
                  t(
                    a.status === "notDone"
                      ? "grades.notDone"
                      : a.status === "hidden"
                        ? "grades.hidden"
                        : "grades.awaitingGrading",
                  )
                )}
              </td>
              <td data-label={t("grades.result")}>
                {a.passed === true ? t("grades.passed") : a.passed === false ? t("grades.failed") : "—"}
              </td>
              <td data-label={t("grades.completed")}>{a.finished ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * One course on the grades page: its attempt's state, progress, grade and score, and its graded
 * activities — folded away on the list (a `<details>`, no JavaScript needed), open on the course's part.
 */
export function GradeCourse({
  row,
  open = false,
  headingLevel = 2,
}: {
  row: GradeRow;
  open?: boolean;
  headingLevel?: 2 | 3;
}) {
  const { t } = useTranslation();
  const H = headingLevel === 2 ? "h2" : "h3";
  const titleId = `grade-${row.id}`;
  return (
    <section className="grade-course" aria-labelledby={titleId}>
      <div className="grade-course__head">
        <H id={titleId}>{open ? row.name : <Link to={`/learn/grades/${row.id}`}>{row.name}</Link>}</H>
        <span className="grade-course__code">{row.code}</span>
        {row.mandatory ? <span className="tag">{t("courses.mandatory")}</span> : null}
      </div>
      <dl className="grade-course__facts">
        <div>
          <dt>{t("course.status")}</dt>
          <dd>{t(row.stateKey)}</dd>
        </div>
        <div>
          <dt>{t("courses.progress")}</dt>
          <dd>{row.progress}%</dd>
        </div>
        <div>
          <dt>{t("grades.score")}</dt>
          <dd>
            <CourseResult row={row} />
          </dd>
        </div>
        <div>
          <dt>{t("grades.grade")}</dt>
          <dd>{row.hidden ? t("grades.hidden") : (row.result?.grade?.name ?? "—")}</dd>
        </div>
        <div>
          <dt>{t("grades.result")}</dt>
          <dd>
            <Outcome row={row} />
          </dd>
        </div>
        <div>
          <dt>{t("grades.completed")}</dt>
          <dd>{row.completed ?? "—"}</dd>
        </div>
      </dl>
      {open ? (
        <>
          <h3 className="grade-course__activities-title">{t("grades.activities")}</h3>
          <ActivityTable row={row} />
        </>
      ) : row.activities.length > 0 ? (
        <details className="grade-course__activities">
          <summary>{t("grades.activitiesCount", { count: row.activities.length })}</summary>
          <ActivityTable row={row} />
        </details>
      ) : null}
    </section>
  );
}
