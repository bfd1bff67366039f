import { z } from "zod";
import type { Route } from "./+types/learn.lti.authorize";
import { endpoints } from "#domain/contract/endpoints";
import { getInstance } from "~/services/i18n.server";
import { ltiClient, ltiPage, ltiRefusal } from "~/services/lti.server";
import { appConfig, sessionStore } from "~/services/config.server";
import { readSession } from "~/services/session.server";

const short = z.string().max(2000);
const authSchema = z.object({
  scope: short,
  response_type: short,
  response_mode: short,
  prompt: short,
  client_id: short,
  redirect_uri: short,
  login_hint: short,
  lti_message_hint: z.string().max(4000),
  nonce: short,
  state: short.optional(),
});

/**
 * GET /learn/lti/authorize (issue 14 item 2): the platform's OIDC authorization endpoint for LTI 1.3.
 * The tool sends the learner's browser here; the API checks the request against the registry and the
 * launch, and signs the id_token, which this page posts to the tool's redirect URI (`form_post`).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { t } = getInstance(context);
  const parsed = authSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return ltiPage(context, { status: 400, message: t("lti.launch.failed") });
  const config = appConfig(context);
  const signedIn = (await readSession(request, config, sessionStore(context))) !== null;
  const lms = (await ltiClient(request, context, true))!;
  try {
    // A tool in a frame on another site brings the learner back without the (SameSite=Lax) session
    // cookie: the launch's signed, one-use hint then authenticates the request (decision 023).
    const answer = await lms.command(
      signedIn ? endpoints.ltiAuthorization : endpoints.ltiHintAuthorization,
      parsed.data,
    );
    return ltiPage(context, {
      message: t("lti.launch.opening"),
      form: { action: answer.action, method: "post", fields: { ...answer.fields }, formAction: answer.formAction },
    });
  } catch (err) {
    return ltiRefusal(context, err);
  }
}
