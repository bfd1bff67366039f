import { data } from "react-router";
import { isUuid } from "#domain/contract/common";

/** The answer's data that makes the error page say "Course is not available" (spec 2.5 / 8). */
export const COURSE_UNAVAILABLE = "course-unavailable";

/** A route's course id: a UUID, or the 'Course is not available' page (404) before anything is asked. */
export function requireCourseId(id: string | undefined): string {
  if (!id || !isUuid(id)) throw data(COURSE_UNAVAILABLE, { status: 404 });
  return id;
}
