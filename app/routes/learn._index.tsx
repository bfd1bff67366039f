import { redirect } from "react-router";
import type { Route } from "./+types/learn._index";
import { state } from "~/services/request.server";

/**
 * /learn (spec 2.1): the learner dashboard when it is available, otherwise My courses, keeping the
 * query (browsers keep the hash across a redirect). Until the dashboard screen exists the redirect
 * always applies.
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  await state(context).requireLearner();
  throw redirect(`/learn/courses${url.search}`);
}
