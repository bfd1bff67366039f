import { redirect } from "react-router";
import type { Route } from "./+types/learn.courses.$id.view.$";
import { requireCourseId } from "~/services/course-id.server";

/** /learn/courses/{id}/view/* (spec 2.1): any other view path opens the content viewer. */
export async function loader({ params, url }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  throw redirect(`/learn/courses/${id}/view/content${url.search}`);
}

export default function CourseViewRedirect() {
  return null;
}
