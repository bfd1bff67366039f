import { redirect } from "react-router";
import type { Route } from "./+types/learn.courses.redirect.$id";

import { state } from "~/services/request.server";
import { catalogCourse } from "~/services/catalog.server";
import { requireCourseId } from "~/services/course-id.server";
import { LmsError } from "~/services/lms.server";
import { ObjectiveState } from "#domain/vocabulary";
import { endpoints } from "#domain/contract/endpoints";

/**
 * /learn/courses/redirect/{id} (spec 2.1, 4.9): a learner with a standing in the course (enrolled,
 * mandatory, a workflow or a record) goes to the course; otherwise, unless archived, to the catalog.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  await s.requireLearner();
  const lms = await s.lms();
  const aggregate = await lms.get(endpoints.objectiveAggregate(id)).catch((err) => {
    if (err instanceof LmsError && err.status === 404) return null;
    throw err;
  });
  if (aggregate && aggregate.objective.activity.state !== ObjectiveState.archived)
    throw redirect(`/learn/courses/${id}`);
  const course = await catalogCourse(lms, id);
  if (course.objective.state === ObjectiveState.archived) throw new Response("Not found", { status: 404 });
  throw redirect(`/learn/catalog/${id}`);
}

export default function CourseRedirect() {
  return null;
}
