import type { RouterContextProvider } from "react-router";
import { tutorAvailable } from "#domain/tutor";
import { state } from "./request.server";
import { loadCourse } from "./course.server";

/** The learner's enrolment in a course whose tutor is on (tenant and course); 404 otherwise. */
export async function tutorCourse(context: Readonly<RouterContextProvider>, id: string) {
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const { aggregate } = await loadCourse(lms, id, { config: s.config });
  if (!aggregate || !tutorAvailable(shell.settings["learner.tutor"], aggregate.objective))
    throw new Response("Not found", { status: 404 });
  return { s, lms, aggregate };
}
