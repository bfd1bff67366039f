import { NavLink } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { FormattedScore } from "#domain/courses";

export interface ScoreViewData {
  color: "success" | "accent" | "danger";
  percent: FormattedScore;
  points: FormattedScore;
}

/** Spec 5: whole percent (or x out of y points), coloured success / accent / danger. */
export function ScoreBadge({ score, className = "" }: { score: ScoreViewData; className?: string }) {
  const { t } = useTranslation();
  const p = score.percent;
  const pts = score.points;
  return (
    <span className={`score score--${score.color} ${className}`}>
      {p.kind === "percent" ? `${p.value}%` : null}
      {pts.kind === "points" && pts.maxScore !== null && pts.maxScore !== 1 ? (
        <span className="score__points"> · {t("course.points", { score: pts.score ?? 0, max: pts.maxScore })}</span>
      ) : null}
    </span>
  );
}

/** Spec 2.5 sidebar layers: Details, Content (when in progress or review is supported, never LTI), Notifications. */
export function CourseLayers({
  objectiveId,
  active,
  showContent,
  hasAnnouncements,
  hasTutor,
}: {
  objectiveId: string;
  active: "details" | "content" | "notifications" | "tutor";
  showContent: boolean;
  hasAnnouncements: boolean;
  /** Issue 16 item 4: the AI tutor of the course (tenant and course allow it). */
  hasTutor?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <nav className="course-layers" aria-label={t("course.layers")}>
      <ul>
        <li>
          <NavLink
            to={`/learn/courses/${objectiveId}/view/details`}
            aria-current={active === "details" ? "page" : undefined}
          >
            {t("course.layerDetails")}
          </NavLink>
        </li>
        {showContent ? (
          <li>
            <NavLink
              to={`/learn/courses/${objectiveId}/view/content`}
              aria-current={active === "content" ? "page" : undefined}
            >
              {t("course.layerContent")}
            </NavLink>
          </li>
        ) : null}
        {hasAnnouncements ? (
          <li>
            <NavLink
              to={`/learn/courses/${objectiveId}/view/notifications`}
              aria-current={active === "notifications" ? "page" : undefined}
            >
              {t("course.layerNotifications")}
            </NavLink>
          </li>
        ) : null}
        {hasTutor ? (
          <li>
            <NavLink to={`/learn/courses/${objectiveId}/tutor`} aria-current={active === "tutor" ? "page" : undefined}>
              {t("tutor.layer")}
            </NavLink>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
