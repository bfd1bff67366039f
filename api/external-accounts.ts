/**
 * Decision 049 (issue 52 item 1, issue 50): the account of a person an external OpenID provider signed
 * in. Only the token's issuer and subject identify her (OIDC Core §5.7): the link (issuer, subject) →
 * user is stored on her first sign-in and used from then on. An unknown subject
 *
 * - whose e-mail address has an account here is linked to it only when the provider says the address is
 *   verified (`email_verified: true`) and the deployment allows linking by e-mail (off by default);
 *   otherwise she is refused — a token that merely carries ada's address never signs anyone in as Ada;
 * - else gets a learner account of the default tenant, made now (just in time), unless the deployment
 *   requires accounts to be provisioned first: then she is refused.
 *
 * A refusal is a 403 with a code the app shows as its own page (never a 401, which would send the
 * browser back to the provider and round again: the redirect loop of the issue).
 */
import { and, eq, sql } from "drizzle-orm";
import type { ExternalAccountPolicy, TokenClaims } from "./context";
import type { Db, Tx } from "./db/client";
import { identityLinks, licences, userRoles, users } from "./db/schema";
import { log } from "./db/log";
import { ApiError, message } from "./errors";
import { defaultTenantId } from "./settings";
import { isSupportedLocale } from "../domain/locales";

const DEFAULT_EXTERNAL_ACCOUNTS: ExternalAccountPolicy = { newAccounts: "create", emailLinking: "off" };

/** The code of the API's answer to a person with no account here (the app's page for it). */
const NO_ACCOUNT_CODE = "accountNotProvisioned";

export type ExternalSignIn =
  | { userId: string; how: "linked" | "created" | "email" }
  | { refused: "notProvisioned" | "emailNotLinked" | "noEmail" };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function namesOf(claims: TokenClaims): { firstName: string; lastName: string } {
  const ext = claims.external!;
  if (ext.givenName || ext.familyName) return { firstName: ext.givenName ?? "", lastName: ext.familyName ?? "" };
  const parts = (ext.name ?? claims.email?.split("@")[0] ?? "").split(/\s+/).filter(Boolean);
  return {
    firstName: parts.slice(0, -1).join(" ") || (parts[0] ?? ""),
    lastName: parts.length > 1 ? parts.at(-1)! : "",
  };
}

async function linkedUser(db: Db | Tx, issuer: string, subject: string): Promise<string | null> {
  const rows = await db
    .select({ userId: identityLinks.userId })
    .from(identityLinks)
    .where(and(eq(identityLinks.issuer, issuer), eq(identityLinks.subject, subject)))
    .limit(1);
  return rows[0]?.userId ?? null;
}

/**
 * The user an external token's subject is, linking or making the account on her first sign-in. Two
 * first requests at once (a page makes several) make one account: the work is serialised on the
 * subject by a transaction-scoped advisory lock, and the link is looked up again under it.
 */
export async function externalSignIn(
  db: Db,
  claims: TokenClaims,
  policy: ExternalAccountPolicy = DEFAULT_EXTERNAL_ACCOUNTS,
): Promise<ExternalSignIn> {
  const issuer = claims.external!.issuer;
  const subject = claims.sub;
  const known = await linkedUser(db, issuer, subject);
  if (known) return { userId: known, how: "linked" };
  const email = claims.email?.toLowerCase();
  const result = await db.transaction(async (tx): Promise<ExternalSignIn> => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`identity:${issuer}\n${subject}`}))`);
    const linked = await linkedUser(tx, issuer, subject);
    if (linked) return { userId: linked, how: "linked" };
    const holder = email
      ? (
          await tx
            .select({ id: users.id })
            .from(users)
            .where(sql`lower(${users.email}) = ${email}`)
            .limit(1)
        )[0]
      : undefined;
    if (holder) {
      // OIDC Core §5.7: the address alone is no proof; linking needs the provider's word and the deployment's.
      if (policy.emailLinking !== "verified" || !claims.external!.emailVerified) return { refused: "emailNotLinked" };
      await tx.insert(identityLinks).values({ issuer, subject, userId: holder.id, how: "email", email });
      return { userId: holder.id, how: "email" };
    }
    if (policy.newAccounts === "refuse") return { refused: "notProvisioned" };
    // Every account has an address (mail, rosters): a token without a usable one cannot make one.
    if (!email || email.length > 254 || !EMAIL.test(email)) return { refused: "noEmail" };
    const tenantId = await defaultTenantId(tx as unknown as Db);
    if (!tenantId) return { refused: "notProvisioned" };
    const { firstName, lastName } = namesOf(claims);
    const locale = claims.external!.locale;
    const [created] = await tx
      .insert(users)
      .values({
        tenantId,
        email,
        firstName: firstName.slice(0, 100),
        lastName: lastName.slice(0, 100),
        locale: isSupportedLocale(locale) ? locale : null,
        timezone: claims.external!.zoneinfo ?? null,
      })
      .returning({ id: users.id });
    await tx.insert(userRoles).values({ userId: created.id, role: "Learner" });
    await tx.insert(licences).values({ userId: created.id, product: "LMS" });
    await tx.insert(identityLinks).values({ issuer, subject, userId: created.id, how: "created", email });
    return { userId: created.id, how: "created" };
  });
  if ("refused" in result) log().info({ issuer, subject, reason: result.refused }, "auth: external sign-in refused");
  else if (result.how !== "linked")
    // The audit of a new link: who, by which provider, and how (the row keeps it too).
    log().info({ issuer, subject, userId: result.userId, how: result.how, email }, "auth: external account linked");
  return result;
}

/** A refusal as the API answers it: 403 with the code the app shows its page for. */
export function noAccountError(reason: "notProvisioned" | "emailNotLinked" | "noEmail"): ApiError {
  return new ApiError(403, {
    "": [
      message(
        NO_ACCOUNT_CODE,
        "You are signed in at your organisation's identity provider, but this LMS has no account for you.",
        { reason },
      ),
    ],
  });
}
