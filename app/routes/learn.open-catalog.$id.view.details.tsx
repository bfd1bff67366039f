import { redirect, useLoaderData } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.open-catalog.$id.view.details";
import { state } from "~/services/request.server";
import { publicCourse } from "~/services/catalog.server";
import { requireCourseId } from "~/services/course-id.server";
import { publicLms } from "~/services/user.server";
import { AboutHtml, CollapsibleDescription, CourseCover, CourseHeader } from "~/components/course-summary";

export const handle = {
  title: (d: { course?: { name: string } } | undefined) => d?.course?.name ?? null,
  breadcrumb: (d: { course?: { name: string } } | undefined, t: (k: string) => string) =>
    d?.course
      ? [
          { slug: "catalog-list", label: t("breadcrumbs.catalog-list"), href: "/learn/open-catalog" },
          { label: d.course.name },
        ]
      : null,
};

/**
 * /learn/open-catalog/{id}/view/details (spec 2.1, 4.9): public course details, the base of the share
 * link. A signed-in learner following it goes to the course (or the catalog entry).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  const session = await state(context).session();
  if (session) throw redirect(`/learn/courses/redirect/${id}`);
  const course = await publicCourse(publicLms(context), id);
  const enrolThen = (flow: string) => encodeURIComponent(`/learn/courses?occflow=${flow}&objectiveId=${id}`);
  return {
    course,
    links: {
      signUpAdd: `/oidc/login?provider=signup&redirectUrl=${enrolThen("addToMyCourses")}`,
      signInAdd: `/oidc/login?redirectUrl=${enrolThen("addToMyCourses")}`,
      signInStart: `/oidc/login?redirectUrl=${enrolThen("startTheCourse")}`,
    },
  };
}

export default function OpenCatalogCourse() {
  const { course, links } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <article className="course-details">
      <CourseHeader name={course.name} code={course.code} collections={course.showcases} language={course.language} />
      <div className="course-details__grid">
        <div>
          <CollapsibleDescription text={course.description} language={course.language} />
          <AboutHtml html={course.about} language={course.language} />
        </div>
        <aside className="course-details__side">
          <CourseCover imageUrl={course.imageUrl} name={course.name} />
          <a className="button button--primary" href={links.signUpAdd}>
            {t("openCatalog.signUpAndAdd")}
          </a>
          <a className="button" href={links.signInAdd}>
            {t("openCatalog.signInAndAdd")}
          </a>
          <a className="button" href={links.signInStart}>
            {t("openCatalog.signInAndStart")}
          </a>
        </aside>
      </div>
    </article>
  );
}
