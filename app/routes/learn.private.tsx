import { Outlet } from "react-router";
import type { Route } from "./+types/learn.private";
import { state } from "~/services/request.server";

/** Everything under this layout needs a signed-in user allowed in the learner area (spec 6). */
export async function loader({ context }: Route.LoaderArgs) {
  await state(context).requireLearner();
  return null;
}

export default function LearnerArea() {
  return <Outlet />;
}
