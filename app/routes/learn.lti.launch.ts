import { z } from "zod";
import type { Route } from "./+types/learn.lti.launch";
import { endpoints } from "#domain/contract/endpoints";
import { readForm } from "~/services/forms.server";
import { getInstance } from "~/services/i18n.server";
import { ltiClient, ltiPage, ltiRefusal } from "~/services/lti.server";

const launchSchema = z.object({
  objectiveWorkflowId: z.uuid(),
  activityPathId: z.uuid(),
  version: z.enum(["1.3", "1.1"]).default("1.3"),
});

/**
 * POST /learn/lti/launch: the learner opens an LTI activity. LTI 1.3: the API
 * starts the activity and returns the tool's login-initiation URL; LTI 1.1: the activity is started and
 * its signed form fetched. This page goes on to the tool (by itself with JavaScript, by a button
 * without) inside the activity's frame or in a window of its own.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { t } = getInstance(context);
  const form = await readForm(request);
  const parsed = launchSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return ltiPage(context, { status: 400, message: t("lti.launch.failed") });
  const lms = await ltiClient(request, context);
  if (!lms) return ltiPage(context, { status: 401, message: t("lti.launch.signIn") });
  try {
    if (parsed.data.version === "1.1") {
      // LTI 1.1: start the activity, then post its signed form to the tool (issue 14 item 3).
      const started = await lms.command(endpoints.startActivityWorkflows, {
        objectiveWorkflowId: parsed.data.objectiveWorkflowId,
        activityPartIds: [parsed.data.activityPathId],
      });
      const aw = started.activityWorkflows.find((w) => w.activityPartId === parsed.data.activityPathId);
      if (!aw) return ltiPage(context, { status: 404, message: t("lti.launch.failed") });
      const form = await lms.get(endpoints.ltiResourceForm(parsed.data.objectiveWorkflowId, aw.id));
      return ltiPage(context, {
        message: t("lti.launch.opening"),
        form: { action: form.action, method: "post", fields: form.fields, formAction: form.formAction },
      });
    }
    const link = await lms.command(endpoints.ltiResourceLink(parsed.data.objectiveWorkflowId), {
      activityPathId: parsed.data.activityPathId,
    });
    const url = new URL(link.targetLinkUri);
    const fields = Object.fromEntries(url.searchParams);
    url.search = "";
    return ltiPage(context, {
      message: t("lti.launch.opening"),
      form: { action: url.toString(), method: "get", fields, formAction: link.formAction },
    });
  } catch (err) {
    return ltiRefusal(context, err);
  }
}

export function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}
