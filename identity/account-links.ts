/**
 * Decision 036: signing up and resetting a password by a one-time link sent by e-mail.
 *
 * - Sign-up: the form's answer is the same whether or not the address has an account ("check your
 *   e-mail"); a new address gets a link that makes the account and signs the learner in, a known one a
 *   message saying it already has an account (sign in, or reset the password). Nothing is made until
 *   the link is used, so an attacker learns nothing from the form and cannot sign up in someone's name:
 *   the password is chosen on the link's page, by whoever holds the mailbox, and a new sign-up of an
 *   address voids every earlier link for it (decision 050). The mail greets nobody by the name typed
 *   in the form (the address has not confirmed it).
 * - Password reset: the same answer whether or not the address has an account; an account gets a link
 *   that works once, within 30 minutes, and every earlier link stops working. Using it sets the password,
 *   ends every session of the account (decision 017) and signs the learner in.
 *
 * Tokens are 256 random bits; only their SHA-256 is stored. E-mails go through the outbox.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../api/db/client";
import { emailTokens, users } from "../api/db/schema";
import { defaultTenantId } from "../api/settings";
import { enqueueMail } from "../api/mail/outbox";
import { layoutMail, mailTranslator } from "../api/mail/texts";
import { hashPassword } from "./password";
import { createLearnerAccount, passwordProblem } from "./register";

export const SIGNUP_LINK_HOURS = 24;
export const RESET_LINK_MINUTES = 30;

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
/** A token as it appears in a link: 43 base64url characters. */
const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

function newToken() {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: sha256(token) };
}

async function accountOf(db: Db, email: string) {
  const rows = await db
    .select({ id: users.id, firstName: users.firstName })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return rows[0] ?? null;
}

/** Where the app starts a sign-in that carries a link's token to the provider (`/oidc/login?confirm=…`). */
const linkTo = (appUrl: string, param: "confirm" | "reset", token: string, target?: string | null) =>
  `${appUrl}/oidc/login?${param}=${encodeURIComponent(token)}${target ? `&redirectUrl=${encodeURIComponent(target)}` : ""}`;

/**
 * The app page a sign-up continues to after its e-mailed link (the app's `signup_target`: "Sign up and add
 * to my courses" names the course), kept only when it is a path of the app's own: the link may be opened in
 * another browser, where nothing else remembers it. The app checks it again (`safeTarget`).
 */
export function signUpTarget(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 1024) return null;
  return /^\/learn(?:[/?#]|$)/.test(value) && !/[\\\s]|\/\//.test(value) ? value : null;
}

/**
 * A checked, rate-limited sign-up (names and address; no password): the e-mail says what the address's
 * owner should do next. A new address's earlier links stop working: only the newest can make the account.
 */
export async function requestSignUp(
  db: Db,
  input: { firstName: string; lastName: string; email: string },
  opts: { locale: string; appUrl: string; now?: Date; target?: string | null },
): Promise<void> {
  const now = opts.now ?? new Date();
  const existing = await accountOf(db, input.email);
  const { t } = mailTranslator(opts.locale);
  const common = { locale: opts.locale, to: input.email };
  if (existing) {
    await enqueueMail(
      db,
      "signupExisting",
      layoutMail({
        ...common,
        subject: t("signUpExisting.subject"),
        greeting: t("greeting", { name: existing.firstName }),
        paragraphs: [t("signUpExisting.text", { email: input.email })],
        actions: [
          { label: t("signUpExisting.signIn"), href: `${opts.appUrl}/oidc/login` },
          { label: t("signUpExisting.reset"), href: `${opts.appUrl}/oidc/login?provider=forgot` },
        ],
        closing: [t("signUpExisting.ignore")],
      }),
    );
    return;
  }
  const { token, hash } = newToken();
  await db.transaction(async (tx) => {
    await tx
      .update(emailTokens)
      .set({ usedAt: now })
      .where(
        and(
          sql`lower(${emailTokens.email}) = ${input.email.toLowerCase()}`,
          eq(emailTokens.purpose, "signup"),
          isNull(emailTokens.usedAt),
        ),
      );
    await tx.insert(emailTokens).values({
      purpose: "signup",
      tokenHash: hash,
      email: input.email,
      payload: { firstName: input.firstName, lastName: input.lastName },
      expiresAt: new Date(now.getTime() + SIGNUP_LINK_HOURS * 3600_000),
    });
    await enqueueMail(
      tx,
      "signup",
      layoutMail({
        ...common,
        subject: t("signUp.subject"),
        greeting: t("greetingPlain"),
        paragraphs: [t("signUp.text")],
        actions: [
          { label: t("signUp.action"), href: linkTo(opts.appUrl, "confirm", token, signUpTarget(opts.target)) },
        ],
        closing: [t("signUp.expires", { hours: String(SIGNUP_LINK_HOURS) }), t("signUp.ignore")],
      }),
    );
  });
}

/** A link's token, still unused and unexpired: its address (for the page), or null. Reads only. */
export async function linkTarget(db: Db, purpose: "signup" | "reset", token: string, now = new Date()) {
  if (!LINK_TOKEN.test(token)) return null;
  const rows = await db
    .select({ email: emailTokens.email, userId: emailTokens.userId })
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.tokenHash, sha256(token)),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, now),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

/** Marks the token used — once: two tabs cannot both use it. The row, or null when not usable. */
async function takeToken(db: Pick<Db, "update">, purpose: "signup" | "reset", token: string, now: Date) {
  if (!LINK_TOKEN.test(token)) return null;
  const rows = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailTokens.tokenHash, sha256(token)),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, now),
      ),
    )
    .returning();
  return rows[0] ?? null;
}

type ConfirmResult =
  | { ok: true; userId: string }
  | { ok: false; reason: "invalid" | "taken" }
  | { ok: false; reason: "password"; code: "fieldRequired" | "passwordTooShort" | "tooLong" };

/**
 * The sign-up link used, with the password its holder chose there: the learner's account in the default
 * tenant (Learner role, LMS licence), greeted once at the first sign-in (spec 2.4 `selfRegistered`). An
 * address that got an account since (another link of the same sign-up) is not signed in by this one.
 */
export async function confirmSignUp(db: Db, token: string, password: string, now = new Date()): Promise<ConfirmResult> {
  const problem = passwordProblem(password);
  if (problem) return { ok: false, reason: "password", code: problem.code as "fieldRequired" };
  const tenantId = await defaultTenantId(db);
  if (!tenantId) return { ok: false, reason: "invalid" };
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx): Promise<ConfirmResult> => {
    const row = await takeToken(tx, "signup", token, now);
    if (!row?.payload) return { ok: false, reason: "invalid" };
    const { firstName, lastName } = row.payload;
    const userId = await createLearnerAccount(tx, tenantId, { email: row.email, firstName, lastName, passwordHash });
    return userId ? { ok: true, userId } : { ok: false, reason: "taken" };
  });
}

/**
 * "Forgot password?", checked and rate-limited: an account gets a new link (earlier ones stop working);
 * an unknown address gets nothing. The caller answers the same in both cases.
 */
export async function requestPasswordReset(
  db: Db,
  email: string,
  opts: { locale: string; appUrl: string; now?: Date },
): Promise<void> {
  const now = opts.now ?? new Date();
  const account = await accountOf(db, email);
  if (!account) return;
  const { token, hash } = newToken();
  const { t } = mailTranslator(opts.locale);
  await db.transaction(async (tx) => {
    await tx
      .update(emailTokens)
      .set({ usedAt: now })
      .where(and(eq(emailTokens.userId, account.id), eq(emailTokens.purpose, "reset"), isNull(emailTokens.usedAt)));
    await tx.insert(emailTokens).values({
      purpose: "reset",
      tokenHash: hash,
      email,
      userId: account.id,
      expiresAt: new Date(now.getTime() + RESET_LINK_MINUTES * 60_000),
    });
    await enqueueMail(
      tx,
      "reset",
      layoutMail({
        locale: opts.locale,
        to: email,
        subject: t("reset.subject"),
        greeting: t("greeting", { name: account.firstName }),
        paragraphs: [t("reset.text", { email })],
        actions: [{ label: t("reset.action"), href: linkTo(opts.appUrl, "reset", token) }],
        closing: [t("reset.expires", { minutes: String(RESET_LINK_MINUTES) }), t("reset.ignore")],
      }),
    );
  });
}

type ResetResult =
  | { ok: true; userId: string }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "password"; code: "fieldRequired" | "passwordTooShort" | "tooLong" };

/** The reset link used with a new password: set once; the caller ends the account's sessions. */
export async function resetPassword(db: Db, token: string, password: string, now = new Date()): Promise<ResetResult> {
  const problem = passwordProblem(password);
  if (problem) return { ok: false, reason: "password", code: problem.code as "fieldRequired" };
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx): Promise<ResetResult> => {
    const row = await takeToken(tx, "reset", token, now);
    if (!row?.userId) return { ok: false, reason: "invalid" };
    await tx.update(users).set({ passwordHash }).where(eq(users.id, row.userId));
    return { ok: true, userId: row.userId };
  });
}
