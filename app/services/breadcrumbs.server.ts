import { createCookie } from "react-router";
import type { AppConfig } from "./config.server";
import { memoByConfig } from "./memo.server";
import { LISTS, type ListSlug } from "~/common/lists";

/** Remembered in a cookie when a list is shown, so the course pages know it without JavaScript. */
const cookie = memoByConfig((config) =>
  createCookie("learn_list", {
    path: "/learn",
    httpOnly: true,
    sameSite: "lax",
    secure: config.secureCookies,
    maxAge: 30 * 24 * 3600,
  }),
);

/** The list the learner last saw; My courses when none. */
export async function listCameFrom(request: Request, config: AppConfig): Promise<ListSlug> {
  const value: unknown = await cookie(config).parse(request.headers.get("Cookie"));
  return LISTS.find((l) => l === value) ?? "courses-list";
}

/** The Set-Cookie header that remembers `slug`, or nothing when it is already remembered. */
export async function rememberList(request: Request, slug: ListSlug, config: AppConfig): Promise<string | null> {
  const value: unknown = await cookie(config).parse(request.headers.get("Cookie"));
  return value === slug ? null : cookie(config).serialize(slug);
}
