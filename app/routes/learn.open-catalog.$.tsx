import { redirect } from "react-router";
import type { Route } from "./+types/learn.open-catalog.$";
import { isUuid } from "#domain/contract/common";

/** /learn/open-catalog/* (spec 2.1, public catalog router): /{id} and /{id}/view lead to the details. */
export async function loader({ params }: Route.LoaderArgs) {
  const [id, ...rest] = (params["*"] ?? "").split("/").filter(Boolean);
  if (id && isUuid(id) && (rest.length === 0 || (rest.length === 1 && rest[0] === "view"))) {
    throw redirect(`/learn/open-catalog/${id}/view/details`);
  }
  throw new Response("Not found", { status: 404 });
}

export default function OpenCatalogRouter() {
  return null;
}
