import { Form, redirect, useLoaderData, useNavigation } from "react-router";
import { useTranslation } from "~/common/i18n";
import { listCrumb } from "~/components/list-crumb";
import type { Route } from "./+types/learn.catalog.$id";
import { state } from "~/services/request.server";
import { enforceLearnerArea, requireFeature } from "~/services/user.server";
import { catalogCourse } from "~/services/catalog.server";
import { requireCourseId } from "~/services/course-id.server";
import { enrol } from "~/services/course-lists.server";
import { redirectWithToast } from "~/services/toast.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { parseSubmission } from "~/common/forms/parse";
import { INTENT } from "~/common/forms/intents";
import { z } from "zod";
import { AboutHtml, CollapsibleDescription, CourseCover, CourseHeader } from "~/components/course-summary";

/** Add to my courses (spec 4.3); `enrolId` makes a double-clicked button one enrolment. */
const enrolSchema = z.object({ intent: z.literal(INTENT.enrol), enrolId: z.uuid() });

export const handle = {
  title: (d: { course?: { objective: { name: string } } } | undefined) => d?.course?.objective.name ?? null,
  breadcrumb: (d: { course?: { objective: { name: string } } } | undefined, t: (k: string) => string) =>
    d?.course ? [listCrumb("catalog-list", t), { label: d.course.objective.name }] : null,
};

/** /learn/catalog/{id} (spec 2.1): a catalog course with 'Add to my courses'. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  const shell = await s.shell();
  if (!shell) throw redirect(`/learn/open-catalog/${id}/view/details`);
  // Spec 2.1: the catalog is a learner-only path — others leave as from every learner page.
  enforceLearnerArea(shell, s.config);
  requireFeature(shell, "catalog");
  const lms = await s.lms();
  const course = await catalogCourse(lms, id);
  void request;
  return { course, enrolId: crypto.randomUUID() };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  await s.requireLearner();
  const form = await readForm(request);
  if (intentOf(form) !== INTENT.enrol) badRequest();
  const submission = parseSubmission(form, enrolSchema);
  if (submission.status !== "success") badRequest();
  const result = await enrol(await s.lms(), id, submission.value.enrolId);
  if (result.ok)
    return redirectWithToast(
      "/learn/courses",
      {
        type: "success",
        key: "publicCatalog.courseEnrolled",
        values: { name: result.name },
      },
      s.config,
    );
  if (result.reason === "refused") {
    const m = result.message;
    return redirectWithToast(
      `/learn/catalog/${id}`,
      {
        type: "critical",
        key: m ? `apiErrors.${m.code}` : "messages.unknownError",
        values: m?.params,
      },
      s.config,
    );
  }
  if (result.reason === "notFound") throw new Response("Not found", { status: 404 });
  return redirectWithToast("/learn/courses", { type: "critical", key: "messages.unknownError" }, s.config);
}

export default function CatalogCourse() {
  const { course, enrolId } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === INTENT.enrol;
  const o = course.objective;
  return (
    <article className="course-details">
      <CourseHeader name={o.name} code={o.code} collections={o.showcases} language={o.language} />
      <div className="course-details__grid">
        <div>
          <CollapsibleDescription text={o.description} language={o.language} />
          <AboutHtml html={o.about} language={o.language} />
        </div>
        <aside className="course-details__side">
          <CourseCover imageUrl={o.imageUrl} name={o.name} />
          {course.enrolled ? (
            <>
              <button type="button" className="button" disabled>
                {t("catalog.enrolled")}
              </button>
              <a className="button button--primary" href={`/learn/courses/${o.id}`}>
                {t("catalog.goToCourse")}
              </a>
            </>
          ) : o.allowSelfEnrollment === false ? (
            // Offered only where it can work: the API refuses a course that does not allow it (spec 7.3),
            // and a form posted anyway (an old page, the setting changed since) still gets that toast.
            <p className="notice" role="note">
              {t("apiErrors.selfEnrollmentNotAllowed")}
            </p>
          ) : (
            <Form method="post">
              <input type="hidden" name="intent" value={INTENT.enrol} />
              <input type="hidden" name="enrolId" value={enrolId} />
              <button type="submit" className="button button--primary" disabled={busy} aria-disabled={busy}>
                {busy ? t("app.loading") : t("catalog.addToMyCourses")}
              </button>
            </Form>
          )}
        </aside>
      </div>
    </article>
  );
}
