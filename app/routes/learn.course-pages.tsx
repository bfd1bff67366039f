import { Outlet, useLoaderData, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/learn.course-pages";
import { isUuid } from "#domain/contract/common";
import { tutorWidget } from "~/services/tutor.server";
import { serverRenderedWidget } from "~/components/lazy-widget";

/** The widget's code, the tutor's and Conform's load only where a widget shows (not in a page's first load). */
const TutorWidget = serverRenderedWidget(() => import("~/components/tutor-widget"));

/**
 * A layout without a URL of its own around a course's details and content pages (issue 16 item 4, spec
 * 2.11; decision 028): it adds the AI tutor widget, beside or after the page, where tenant and course allow
 * it. Its loader runs beside the page's, so the pages' own loaders and components do not change; and as a
 * layout the widget stays open, with its conversation, while the learner moves between the pages.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = "id" in params ? params.id : undefined;
  // The page itself answers a malformed id (404).
  if (!isUuid(id)) return { widget: null };
  return { widget: await tutorWidget(context, id) };
}

/**
 * Moving within a course keeps the widget as it is (no reload, no second read of the enrolment); another
 * course, or a form that may change the enrolment (start, enrol), asks again.
 */
export function shouldRevalidate({
  currentParams,
  nextParams,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (currentParams.id !== nextParams.id) return true;
  return formMethod !== undefined && formMethod !== "GET" ? defaultShouldRevalidate : false;
}

export default function CoursePages() {
  const { widget } = useLoaderData<typeof loader>();
  // Issue 25 item 5: one box around the page and the widget, so an expanded widget docks beside the page
  // (wide windows) or after it, never over it.
  return (
    <div className="course-pages">
      <Outlet />
      {widget ? <TutorWidget key={widget.objectiveId} {...widget} /> : null}
    </div>
  );
}
