import { Link } from "react-router";
import { useTranslation } from "~/i18n/lite";
import { coverFallbackColor, progressPercent } from "#domain/courses";

export interface CardProps {
  index: number;
  id: string;
  name: string;
  code: string;
  imageUrl: string | null;
  href: string;
  collections: string[];
  mandatory?: boolean;
  progress?: number;
  footer?: React.ReactNode;
  badge?: React.ReactNode;
  description?: string;
}

/** Spec 2.3: cover image (fallback colour cycled by index), progress bar clamped 0..1, footer. */
export function CourseCard(props: CardProps) {
  const { t } = useTranslation();
  const titleId = `course-title-${props.id}`;
  return (
    <li className="course-card">
      <article aria-labelledby={titleId}>
        <div className="course-card__cover" style={props.imageUrl ? undefined : { backgroundColor: coverFallbackColor(props.index) }}>
          {props.imageUrl ? (
            <img src={props.imageUrl} alt="" loading={props.index < 4 ? "eager" : "lazy"} width={320} height={160} />
          ) : (
            <span aria-hidden="true" className="course-card__initials">{props.name.slice(0, 2)}</span>
          )}
          {props.badge}
        </div>
        <div className="course-card__body">
          <p className="course-card__code">{props.code}</p>
          <h2 className="course-card__title" id={titleId}>
            <Link to={props.href} prefetch="intent" className="course-card__link">{props.name}</Link>
          </h2>
          {props.description ? <p className="course-card__description">{props.description}</p> : null}
          <p className="course-card__tags">
            {props.mandatory !== undefined ? (
              <span className={`tag ${props.mandatory ? "tag--mandatory" : ""}`}>{props.mandatory ? t("courses.mandatory") : t("courses.optional")}</span>
            ) : null}
            {props.collections.map((c) => (
              <span key={c} className="tag tag--collection">{c}</span>
            ))}
          </p>
          {props.progress !== undefined ? (
            <div className="progress" role="progressbar" aria-label={t("courses.progress")} aria-valuemin={0} aria-valuemax={100} aria-valuenow={progressPercent(props.progress)}>
              <div className="progress__bar" style={{ inlineSize: `${progressPercent(props.progress)}%` }} />
            </div>
          ) : null}
          {props.footer ? <p className="course-card__footer">{props.footer}</p> : null}
        </div>
      </article>
    </li>
  );
}
