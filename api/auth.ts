import { createMiddleware } from "hono/factory";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { ApiEnv, Principal } from "./context";
import { ApiError, message } from "./errors";
import { features, userRoles, users } from "./db/schema";
import type { Db } from "./db/client";
import type { DataChange } from "../domain/contract/changes";
import { DEFAULT_FEATURES } from "../domain/menu";
import { externalSignIn, noAccountError } from "./external-accounts";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function unauthorized(text: string) {
  return new ApiError(401, { "": [message("unauthorized", text)] });
}

/**
 * A verified token's user, remembered briefly: one page makes several API calls with the same token,
 * and each would otherwise verify it and look the user up again. The entry never outlives the token.
 */
const PRINCIPAL_TTL_MS = 30_000;
const principals = new Map<string, { principal: Principal; expires: number }>();

/** For tests that count queries: start from a cold cache. */
export function forgetPrincipals(): void {
  principals.clear();
}

/**
 * A user's data changed on some node (decision 019: the database's change notices): their tokens
 * are checked and looked up again, so a user who was removed or moved is not served from memory.
 */
export function forgetPrincipalsAfter(change: DataChange): void {
  if (change.kind === "chat" || change.kind === "ltiTools") return;
  if (change.kind === "all") return principals.clear();
  for (const [token, known] of principals) if (known.principal.id === change.userId) principals.delete(token);
}

/** Verifies the bearer token against the identity provider's keys and loads the signed-in user. */
export const requireUser = createMiddleware<ApiEnv>(async (c, next) => {
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw unauthorized("A bearer token is required.");
  const known = principals.get(match[1]);
  if (known && known.expires > Date.now()) {
    c.set("user", known.principal);
    return next();
  }
  let claims;
  try {
    claims = await c.var.deps.verifyToken(match[1]);
  } catch {
    throw unauthorized("The token is invalid or expired.");
  }
  const db = c.var.db;
  // Decision 049: the embedded provider's subject is the user's id (or an external id the LMS was given);
  // an external provider's is found through its stored link — never by the e-mail address in the token.
  let bySub;
  if (claims.external) {
    const signIn = await externalSignIn(db, claims, c.var.deps.externalAccounts);
    if ("refused" in signIn) throw noAccountError(signIn.refused);
    bySub = eq(users.id, signIn.userId);
  } else bySub = UUID_RE.test(claims.sub) ? eq(users.id, claims.sub) : eq(users.externalId, claims.sub);
  const rows = await db
    .select({
      id: users.id,
      tenantId: users.tenantId,
      email: users.email,
      tokensValidAfter: users.tokensValidAfter,
      deactivatedAt: users.deactivatedAt,
      // The outer row's tenant, named in full: drizzle writes a column of the outer table unqualified,
      // which inside the subquery would mean the features' own tenant_id (every tenant's features).
      features: sql<
        Record<string, boolean>
      >`coalesce((select json_object_agg(${features.name}, ${features.enabled}) from ${features} where ${features.tenantId} = ${sql.identifier("users")}.${sql.identifier("tenant_id")}), '{}'::json)`.mapWith(
        (value: unknown) =>
          typeof value === "string"
            ? (JSON.parse(value) as Record<string, boolean>)
            : (value as Record<string, boolean>),
      ),
    })
    .from(users)
    .where(bySub)
    .limit(1);
  const { tokensValidAfter, deactivatedAt, ...principal } = rows[0] ?? { tokensValidAfter: null, deactivatedAt: null };
  if (!rows[0]) throw unauthorized("The token's subject is not a user of this LMS.");
  // Decision 059: an account a provisioning client deactivated (SCIM active: false) is signed in nowhere.
  if (deactivatedAt) throw unauthorized("This account is deactivated.");
  // A password reset or an operator's revoke ends the tokens issued before it (decision 050).
  if (tokensValidAfter && (claims.iat ?? 0) * 1000 < tokensValidAfter.getTime())
    throw unauthorized("The token is invalid or expired.");
  const exp = (claims as { exp?: number }).exp;
  const expires = Math.min(Date.now() + PRINCIPAL_TTL_MS, exp ? exp * 1000 : Infinity);
  principals.set(match[1], { principal: principal as Principal, expires });
  if (principals.size > 5_000) principals.delete(principals.keys().next().value!);
  c.set("user", principal as Principal);
  await next();
});

/**
 * Spec 2.10 / 3: a part of the product the tenant's licence does not include (catalog, calendar) is
 * "not implemented" for its users — 501, what the page shows — whatever the client asks. After
 * `requireUser`.
 */
export const requireFeature = (name: "catalog" | "calendar") =>
  createMiddleware<ApiEnv>(async (c, next) => {
    // A tenant without a row for the feature has its default (domain/menu.ts).
    if (!(c.var.user.features[name] ?? DEFAULT_FEATURES[name])) {
      throw new ApiError(501, {
        "": [message("featureNotLicensed", `The ${name} is not part of this tenant's licence.`)],
      });
    }
    await next();
  });

/**
 * Refuses (403, `text`) a signed-in user who holds none of `roles`: the importing routes' check (SCORM
 * packages and cartridges for authors and administrators, people files for administrators).
 */
export async function requireRole(db: Db, userId: string, roles: readonly string[], text: string): Promise<void> {
  const [held] = await db
    .select({ role: userRoles.role })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), inArray(userRoles.role, [...roles])))
    .limit(1);
  if (!held) throw new ApiError(403, { "": [message("forbidden", text)] });
}
