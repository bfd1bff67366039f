/** The catalog's course pages, signed in and open (spec 2.1, 4.9), and the catalogs' own parameters. */
import { data } from "react-router";

import { LmsError, type LmsClient } from "./lms.server";
import { sanitizeCourseHtml } from "./html.server";
import { endpoints } from "#domain/contract/endpoints";
import { COURSE_UNAVAILABLE } from "./course-id.server";

/** Spec 2.5 / 8: 400/401/403/404 while loading a course → the 'Course is not available' page. */
function courseUnavailable(err: unknown): never {
  if (err instanceof LmsError && [400, 401, 403, 404].includes(err.status))
    throw data(COURSE_UNAVAILABLE, { status: 404 });
  throw err;
}

export async function catalogCourse(lms: LmsClient, objectiveId: string) {
  const access = await lms.get(endpoints.objectiveAccess(objectiveId)).catch(courseUnavailable);
  return { ...access, objective: { ...access.objective, about: sanitizeCourseHtml(access.objective.about) } };
}

export async function publicCourse(lms: LmsClient, objectiveId: string) {
  const course = await lms.get(endpoints.openCatalogObjective(objectiveId)).catch(courseUnavailable);
  return { ...course, about: sanitizeCourseHtml(course.about) };
}

/** Catalog and open catalog accept only collections, categories, keyword and page (spec 2.4). */
export function stripNonCatalogParams(url: URL): URL | null {
  const out = new URL(url);
  let changed = false;
  for (const key of ["term", "courseProgress", "coursePriority", "occflow", "objectiveId", "selfRegistered"]) {
    if (out.searchParams.has(key)) {
      out.searchParams.delete(key);
      changed = true;
    }
  }
  return changed ? out : null;
}
