import { data, Link, useLoaderData } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.grades.$id";
import { endpoints } from "#domain/contract/endpoints";
import { state } from "~/services/request.server";
import { getLocale } from "~/services/i18n.server";
import { dateFormatter } from "~/services/format.server";
import { requireCourseId } from "~/services/course-id.server";
import { LmsError } from "~/services/lms.server";
import { toGradeRow } from "~/services/grades.server";
import { GradeCourse } from "~/components/grades";
import type { GradeRow } from "~/common/views/grades";

export const handle = {
  title: (d: { row?: GradeRow } | undefined, t: (k: string) => string) =>
    d?.row ? `${d.row.name} | ${t("grades.title")}` : t("grades.title"),
  breadcrumb: (d: { row?: GradeRow } | undefined, t: (k: string) => string) => [
    { label: t("grades.title"), href: "/learn/grades" },
    ...(d?.row ? [{ label: d.row.name }] : []),
  ],
};

/**
 * /learn/grades/{courseId} (issue 31 item 1): one course's part of the grades page — what the course
 * page links to: the attempt's result and every graded activity, open. Not the learner's course: 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const course = await lms.get(endpoints.gradeCourse(id)).catch((err: unknown) => {
    if (err instanceof LmsError && [400, 403, 404].includes(err.status))
      throw data("course-unavailable", { status: 404 });
    throw err;
  });
  return { row: toGradeRow(course, dateFormatter(getLocale(context), shell.user.timezone)) };
}

export default function CourseGrades() {
  const { row } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="grades grades--course">
      <p className="grades__back">
        <Link to="/learn/grades">{t("grades.allGrades")}</Link>
      </p>
      <h1>{t("grades.courseTitle", { course: row.name })}</h1>
      <GradeCourse row={row} open headingLevel={2} />
      <p>
        <Link className="button" to={`/learn/courses/${row.id}`}>
          {t("grades.openCourse")}
        </Link>
      </p>
    </div>
  );
}
