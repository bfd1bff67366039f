import { redirect } from "react-router";
import type { Route } from "./+types/certificate.$number";

/** /certificate/{number} (spec 2.1's route table): the public page lives under /learn. */
export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/learn/certificate/${encodeURIComponent(params.number ?? "")}`, 301);
}
