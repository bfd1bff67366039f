import { useDelegatedLinks } from "./delegated-links";
import { useTranslation } from "~/common/i18n";
import { coverFallbackColor, progressPercent } from "#domain/courses";
import { textLanguage } from "#domain/locales";
import type { CourseCardView } from "~/common/views/course-card";

/** Spec 2.3: cover image (fallback colour cycled by index), progress bar clamped 0..1, footer. */
export function CourseCard({ card, index }: { card: CourseCardView; index: number }) {
  const { t } = useTranslation();
  const own = textLanguage(card.language);
  const cover = card.imageUrl ? (
    <img
      className="course-card__cover"
      src={card.imageUrl}
      alt=""
      loading={index < 4 ? "eager" : "lazy"}
      width={320}
      height={160}
    />
  ) : (
    <span className="course-card__cover" style={{ backgroundColor: coverFallbackColor(index) }}>
      <span aria-hidden="true" className="course-card__initials">
        {card.name.slice(0, 2)}
      </span>
    </span>
  );
  return (
    <li className="course-card">
      {cover}
      {card.enrolled ? <span className="cover-badge">{t("catalog.enrolled")}</span> : null}
      <p className="course-card__code">{card.code}</p>
      <h2 className="course-card__title" {...own}>
        {/* A plain link: the grid navigates and prefetches for all its cards (CardGrid). */}
        <a href={card.href} className="course-card__link" data-discover="true">
          {card.name}
        </a>
      </h2>
      {card.description ? (
        <p className="course-card__description" {...own}>
          {card.description}
        </p>
      ) : null}
      <p className="course-card__tags">
        {card.mandatory !== undefined ? (
          <span className={card.mandatory ? "tag tag--mandatory" : "tag"}>
            {card.mandatory ? t("courses.mandatory") : t("courses.optional")}
          </span>
        ) : null}
        {card.collections.map((c) => (
          <span key={c} className="tag tag--collection">
            {c}
          </span>
        ))}
      </p>
      {card.progress !== undefined ? (
        <progress
          className="progress"
          aria-label={t("courses.progress")}
          max={100}
          value={progressPercent(card.progress)}
        />
      ) : null}
      {card.footer ? <p className="course-card__footer">{card.footer}</p> : null}
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
