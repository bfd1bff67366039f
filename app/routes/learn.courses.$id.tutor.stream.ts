import type { Route } from "./+types/learn.courses.$id.tutor.stream";
import { endpoints } from "#domain/contract/endpoints";
import { requireCourseId } from "~/services/course-id.server";
import { readForm } from "~/services/forms.server";
import { tutorCourse } from "~/services/tutor.server";
import { parseSubmission } from "~/common/forms/parse";
import { askTutorFormSchema } from "~/common/forms/tutor";

/** A stream that lives as long as its page: the front gives it a stream's place, not a page's (decision 050). */
export const handle = { stream: true };

/**
 * POST /learn/courses/{id}/tutor/stream (issue 16 item 6, decision 028): the tutor's answer streamed to
 * the page as it is written — the same form as /learn/courses/{id}/tutor, answered with the API's
 * server-sent events (`delta`, `fallback`, `done`). The page uses it with JavaScript; without, the form
 * posts to the tutor page and comes back with the whole answer.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  const id = requireCourseId(params.id);
  const { lms, aggregate } = await tutorCourse(context, id);
  const submission = parseSubmission(await readForm(request), askTutorFormSchema);
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  const res = await lms.postStream(endpoints.askTutorStream(aggregate.id), {
    id: submission.value.id,
    question: submission.value.question,
  });
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    // Too many questions: the 429 with when to ask again, which the widget says.
    const retryAfter = res.status === 429 ? (res.headers.get("Retry-After") ?? "60") : null;
    return new Response(null, {
      status: res.status === 429 || res.status === 409 ? res.status : 502,
      headers: retryAfter ? { "Retry-After": retryAfter } : {},
    });
  }
  return new Response(res.body, {
    headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no" },
  });
}

export function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}
