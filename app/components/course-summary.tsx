import { useTranslation } from "~/common/i18n";
import { coverFallbackColor } from "#domain/courses";
import { textLanguage } from "#domain/locales";

const DESCRIPTION_COLLAPSE_AT = 70;

/** Spec 2.5: description collapsible at about 70 characters with Show more / Hide (works without JavaScript). */
export function CollapsibleDescription({ text, language = null }: { text: string; language?: string | null }) {
  const { t } = useTranslation();
  // Issue 25 item 2: the description in its own language and direction; the toggles in the page's.
  const own = textLanguage(language);
  if (text.length <= DESCRIPTION_COLLAPSE_AT)
    return (
      <p className="course-description" {...own}>
        {text}
      </p>
    );
  const cut = text.lastIndexOf(" ", DESCRIPTION_COLLAPSE_AT);
  const short = `${text.slice(0, cut > 40 ? cut : DESCRIPTION_COLLAPSE_AT).trimEnd()}…`;
  return (
    <details className="course-description course-description--collapsible">
      <summary>
        <span className="course-description__short" {...own}>
          {short}
        </span>
        <span className="course-description__more">{t("courseDetails.showMore")}</span>
        <span className="course-description__hide">{t("courseDetails.hide")}</span>
      </summary>
      <p {...own}>{text}</p>
    </details>
  );
}

export function CourseCover({
  imageUrl,
  name,
  children,
}: {
  imageUrl: string | null;
  name: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="course-cover" style={imageUrl ? undefined : { backgroundColor: coverFallbackColor(0) }}>
      {imageUrl ? (
        <img src={imageUrl} alt="" width={640} height={320} />
      ) : (
        <span aria-hidden="true" className="course-card__initials">
          {name.slice(0, 2)}
        </span>
      )}
      {children}
    </div>
  );
}

export function CourseHeader({
  name,
  code,
  collections,
  language = null,
}: {
  name: string;
  code: string;
  collections: { id: string; name: string }[];
  language?: string | null;
}) {
  return (
    <header className="course-header">
      <p className="course-card__code">{code}</p>
      <h1 {...textLanguage(language)}>{name}</h1>
      {collections.length ? (
        <ul className="chips chips--static" aria-label="collections">
          {collections.map((c) => (
            <li key={c.id} className="chip">
              {c.name}
            </li>
          ))}
        </ul>
      ) : null}
    </header>
  );
}

export function AboutHtml({ html, language = null }: { html: string; language?: string | null }) {
  const { t } = useTranslation();
  if (!html) return null;
  return (
    <section className="course-about" aria-labelledby="about-title">
      <h2 id="about-title">{t("courseDetails.about")}</h2>
      {/* Sanitised on the server (app/services/html.server.ts). */}
      <div {...textLanguage(language)} dangerouslySetInnerHTML={{ __html: html }} />
    </section>
  );
}
