import type { Route } from "./+types/learn.assessment-files.$fileId";
import { endpoints } from "#domain/contract/endpoints";
import { learnerFileResponse } from "~/services/files.server";

/**
 * /learn/assessment-files/{fileId}: a file a learner sent as a test's upload answer (decision 068), same-origin,
 * read with the session from the LMS storage API — which answers 404 to anyone but the learner and her
 * graders. PDF and images open in the browser's viewer, the rest downloads; HEAD gives the size, ranges
 * pass through. 401 without a session, 404 otherwise.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  return learnerFileResponse(request, context, params.fileId, endpoints.assessmentFile);
}
