import { createCookie } from "react-router";
import { createHash } from "node:crypto";
import { secureCookies } from "./env.server";

/**
 * Spec 9: the My courses filter and search state persists per user under the key "aggregates".
 * Kept in a cookie (works without JavaScript); tagged with a hash of the user id so another
 * learner on the same browser does not inherit it.
 */
const cookie = () =>
  createCookie("learn_aggregates", {
    path: "/learn",
    httpOnly: true,
    sameSite: "lax",
    secure: secureCookies(),
    maxAge: 180 * 24 * 3600,
  });

const owner = (userId: string) => createHash("sha256").update(`aggregates:${userId}`).digest("base64url").slice(0, 16);

export async function readPersistedFilters(request: Request, userId: string): Promise<string | null> {
  const value = await cookie().parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object" || value.u !== owner(userId) || typeof value.q !== "string") return null;
  return value.q.length <= 2000 ? value.q : null;
}

export async function persistFilters(userId: string, query: string): Promise<string> {
  return cookie().serialize({ u: owner(userId), q: query });
}

export async function clearPersistedFilters(): Promise<string> {
  return cookie().serialize("", { maxAge: 0 });
}
