import { useLoaderData } from "react-router";
import { useTranslation } from "~/i18n/lite";
import type { Route } from "./+types/learn.courses.$id.view.notifications";
import { state } from "~/services/request.server";
import { requireCourseId } from "~/services/catalog.server";
import { loadCourse } from "~/services/course.server";
import { CourseLayers } from "~/components/course-parts";
import { ActivityKind } from "#domain/vocabulary";

/**
 * Spec 2.5 Notifications layer: it opens the course's announcement channel in the chat. This
 * deployment has no chat service, so it says so with the spec's message (spec 8).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  await s.requireLearner();
  const { aggregate, access } = await loadCourse(await s.lms(), id, { config: s.config });
  const objective = aggregate?.objective ?? access!.objective;
  if (!objective.announcementChannelId) throw new Response("Not found", { status: 404 });
  return {
    id,
    name: objective.name,
    showContent: Boolean(aggregate?.lastObjectiveWorkflow) && objective.activity.kind !== ActivityKind.lti,
  };
}

export default function CourseNotifications() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="course-page">
      <CourseLayers objectiveId={d.id} active="notifications" showContent={d.showContent} hasAnnouncements />
      <section className="course-details" aria-labelledby="notifications-title">
        <h1 id="notifications-title">{t("course.layerNotifications")}</h1>
        <p className="notice" role="status">
          {t("messages.chatUnavailable")}
        </p>
      </section>
    </div>
  );
}
