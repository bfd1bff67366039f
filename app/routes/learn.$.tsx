import type { Route } from "./+types/learn.$";

/** Any other path: the not-found page with HTTP status 404 (spec 2.1, 2.10). */
export async function loader(_: Route.LoaderArgs) {
  throw new Response("Not found", { status: 404 });
}

export async function action(_: Route.ActionArgs) {
  throw new Response("Not found", { status: 404 });
}

export default function NotFound() {
  return null;
}
