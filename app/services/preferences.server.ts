import { createCookie } from "react-router";
import { createHash } from "node:crypto";
import type { AppConfig } from "./config.server";
import { memoByConfig } from "./memo.server";

/**
 * Spec 9: the My courses filter and search state persists per user under the key "aggregates"; the
 * grades page keeps its own the same way, under "grades". Kept in a cookie per list (works
 * without JavaScript); tagged with a hash of the user id so another learner on the same browser does
 * not inherit it.
 */
type PersistedList = "aggregates" | "grades";

const cookies = {
  aggregates: memoByConfig((config) => listCookie("learn_aggregates", config)),
  grades: memoByConfig((config) => listCookie("learn_grades", config)),
};

function listCookie(name: string, config: AppConfig) {
  return createCookie(name, {
    path: "/learn",
    httpOnly: true,
    sameSite: "lax",
    secure: config.secureCookies,
    maxAge: 180 * 24 * 3600,
  });
}

const owner = (userId: string, list: PersistedList) =>
  createHash("sha256").update(`${list}:${userId}`).digest("base64url").slice(0, 16);

export async function readPersistedFilters(
  request: Request,
  userId: string,
  config: AppConfig,
  list: PersistedList = "aggregates",
): Promise<string | null> {
  const value = await cookies[list](config).parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object" || value.u !== owner(userId, list) || typeof value.q !== "string")
    return null;
  return value.q.length <= 2000 ? value.q : null;
}

export async function persistFilters(
  userId: string,
  query: string,
  config: AppConfig,
  list: PersistedList = "aggregates",
): Promise<string> {
  return cookies[list](config).serialize({ u: owner(userId, list), q: query });
}

export async function clearPersistedFilters(config: AppConfig, list: PersistedList = "aggregates"): Promise<string> {
  return cookies[list](config).serialize("", { maxAge: 0 });
}
