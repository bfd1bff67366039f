import { data } from "react-router";
import type { Route } from "./+types/learn.scorm-runtime";
import { endpoints } from "#domain/contract/endpoints";
import { isUuid } from "#domain/contract/common";
import { scormCommitSchema, type ScormCommitResult } from "#domain/contract/scorm";
import { state } from "~/services/request.server";
import { LmsError } from "~/services/lms.server";

/**
 * POST /learn/scorm-runtime/{workflowId}/{activityWorkflowId}: the SCORM player's commits (issue 15,
 * decision 025), relayed to spec 7.3's PUT activity workflow. JSON in and out (the player's queue
 * sends them in order with their sequence numbers); the API's refusals pass through with their status.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  if (!isUuid(params.workflowId) || !isUuid(params.activityWorkflowId))
    return data({ error: "notFound" }, { status: 404 });
  const body = scormCommitSchema.safeParse(await request.json().catch(() => null));
  if (!body.success) return data({ error: "invalid" }, { status: 400 });
  const lms = await state(context).lms();
  try {
    const result = await lms.put(endpoints.activityWorkflow(params.workflowId, params.activityWorkflowId), {
      scorm: body.data,
    });
    return data(result as ScormCommitResult);
  } catch (err) {
    if (err instanceof LmsError && err.status >= 400 && err.status < 500)
      return data({ error: "refused", errors: err.messages }, { status: err.status });
    throw err;
  }
}
