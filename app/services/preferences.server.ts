import { createCookie } from "react-router";
import { createHash } from "node:crypto";
import type { AppConfig } from "./config.server";
import { memoByConfig } from "./memo.server";

/**
 * Spec 9: the My courses filter and search state persists per user under the key "aggregates".
 * Kept in a cookie (works without JavaScript); tagged with a hash of the user id so another
 * learner on the same browser does not inherit it.
 */
const cookie = memoByConfig((config) =>
  createCookie("learn_aggregates", {
    path: "/learn",
    httpOnly: true,
    sameSite: "lax",
    secure: config.secureCookies,
    maxAge: 180 * 24 * 3600,
  }),
);

const owner = (userId: string) => createHash("sha256").update(`aggregates:${userId}`).digest("base64url").slice(0, 16);

export async function readPersistedFilters(
  request: Request,
  userId: string,
  config: AppConfig,
): Promise<string | null> {
  const value = await cookie(config).parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object" || value.u !== owner(userId) || typeof value.q !== "string") return null;
  return value.q.length <= 2000 ? value.q : null;
}

export async function persistFilters(userId: string, query: string, config: AppConfig): Promise<string> {
  return cookie(config).serialize({ u: owner(userId), q: query });
}

export async function clearPersistedFilters(config: AppConfig): Promise<string> {
  return cookie(config).serialize("", { maxAge: 0 });
}
