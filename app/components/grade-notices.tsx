import { Link } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { GradeNoticeView } from "~/common/views/grades";

/** Decision 058: "Your work was graded", each leading to the activity where the grade and comment are. */
export function GradeNotices({ notices }: { notices: GradeNoticeView[] }) {
  const { t } = useTranslation();
  if (notices.length === 0) return null;
  return (
    <section className="grade-notices" aria-labelledby="grade-notices-title">
      <h2 id="grade-notices-title">{t("handIn.notice.title")}</h2>
      <ul>
        {notices.map((n) => (
          <li key={n.id} className={n.unread ? "grade-notices__item grade-notices__item--new" : "grade-notices__item"}>
            <Link to={n.href}>
              <strong>{t("handIn.notice.graded")}</strong>: {n.activityName}
            </Link>
            {n.score !== null ? (
              <span className="grade-notices__score">
                {n.maxScore !== null
                  ? t("handIn.scoreOf", { score: n.score, max: n.maxScore })
                  : t("handIn.score", { score: n.score })}
              </span>
            ) : null}
            <span className="grade-notices__time">{n.time}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
