import { useDelegatedLinks } from "./delegated-links";
import { useTranslation } from "~/common/i18n";
import { coverFallbackColor, progressPercent } from "#domain/courses";
import { textLanguage } from "#domain/locales";

export interface CardProps {
  index: number;
  id: string;
  name: string;
  /** The course's language: its name and description in their own direction (issue 25 item 2). */
  language?: string | null;
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
  const own = textLanguage(props.language);
  const cover = props.imageUrl ? (
    <img
      className="course-card__cover"
      src={props.imageUrl}
      alt=""
      loading={props.index < 4 ? "eager" : "lazy"}
      width={320}
      height={160}
    />
  ) : (
    <span className="course-card__cover" style={{ backgroundColor: coverFallbackColor(props.index) }}>
      <span aria-hidden="true" className="course-card__initials">
        {props.name.slice(0, 2)}
      </span>
    </span>
  );
  return (
    <li className="course-card">
      {cover}
      {props.badge}
      <p className="course-card__code">{props.code}</p>
      <h2 className="course-card__title" {...own}>
        {/* A plain link: the grid navigates and prefetches for all its cards (CardGrid). */}
        <a href={props.href} className="course-card__link" data-discover="true">
          {props.name}
        </a>
      </h2>
      {props.description ? (
        <p className="course-card__description" {...own}>
          {props.description}
        </p>
      ) : null}
      <p className="course-card__tags">
        {props.mandatory !== undefined ? (
          <span className={props.mandatory ? "tag tag--mandatory" : "tag"}>
            {props.mandatory ? t("courses.mandatory") : t("courses.optional")}
          </span>
        ) : null}
        {props.collections.map((c) => (
          <span key={c} className="tag tag--collection">
            {c}
          </span>
        ))}
      </p>
      {props.progress !== undefined ? (
        <progress
          className="progress"
          aria-label={t("courses.progress")}
          max={100}
          value={progressPercent(props.progress)}
        />
      ) : null}
      {props.footer ? <p className="course-card__footer">{props.footer}</p> : null}
    </li>
  );
}

/**
 * The list of course cards. Its links navigate in the app and prefetch on intent through one set of
 * handlers on the list, not a `<Link>` per card (decision 045); without JavaScript they are plain links.
 */
export function CardGrid({ children }: { children: React.ReactNode }) {
  const { handlers, prefetch } = useDelegatedLinks();
  return (
    <>
      <ul className="card-grid" {...handlers}>
        {children}
      </ul>
      {prefetch}
    </>
  );
}
