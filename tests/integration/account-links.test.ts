import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../api/db/client";
import { openTestDatabase } from "../fixtures/database";
import { seedDemo } from "../../demo/seed";
import { mailOutbox, pendingRegistrations, users } from "../../api/db/schema";
import { verifyPassword } from "../../identity/password";
import {
  confirmSignUp,
  linkTarget,
  requestPasswordReset,
  requestSignUp,
  resetPassword,
  signUpTarget,
} from "../../identity/account-links";
import { sendPendingMail } from "../../api/mail/outbox";

/**
 * Decision 036: sign-up and password reset by one-time links sent through the outbox —
 * nothing made before the link is used, the same work whether or not an address has an account, links
 * that expire and work once, and mail that two senders never send twice.
 */
let database: Database;
const APP = "https://learn.example";
beforeAll(async () => {
  database = await openTestDatabase();
  await seedDemo(database.db, { catalog: false });
});
afterAll(() => database.close());

const mails = (to: string) =>
  database.db
    .select()
    .from(mailOutbox)
    .where(sql`lower(${mailOutbox.to}) = ${to.toLowerCase()}`)
    .orderBy(mailOutbox.createdAt);
const tokenIn = (text: string, param: "confirm" | "reset") =>
  new RegExp(`/oidc/login\\?${param}=([\\w-]{43})`).exec(text)?.[1] ?? null;

describe("sign-up by e-mailed link", () => {
  it("makes nothing until the link is used, then the learner's account, greeted once; the link works once", async () => {
    const email = "lin.wei@example.com";
    await requestSignUp(database.db, { firstName: "Lin", lastName: "Wei", email }, { locale: "de", appUrl: APP });
    expect(await database.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    const [mail] = await mails(email);
    expect(mail.kind).toBe("signup");
    // In the learner's language, as text and HTML.
    expect(mail.subject).toBe("Schließen Sie Ihre Registrierung im Lernportal ab");
    expect(mail.html).toContain('lang="de"');
    const token = tokenIn(mail.text, "confirm")!;
    expect(mail.html).toContain(token);
    expect(await linkTarget(database.db, "signup", token)).toMatchObject({ email });

    // The password is chosen on the link's page, and checked there.
    expect(await confirmSignUp(database.db, token, "short")).toEqual({
      ok: false,
      reason: "password",
      code: "passwordTooShort",
    });
    const done = await confirmSignUp(database.db, token, "correct horse");
    expect(done.ok).toBe(true);
    if (!done.ok) return;
    const [u] = await database.db.select().from(users).where(eq(users.id, done.userId));
    expect(u).toMatchObject({ email, firstName: "Lin", lastName: "Wei" });
    expect(await verifyPassword("correct horse", u.passwordHash)).toBe(true);
    expect(
      await database.db.select().from(pendingRegistrations).where(eq(pendingRegistrations.userId, u.id)),
    ).toHaveLength(1);
    expect(await confirmSignUp(database.db, token, "correct horse")).toEqual({ ok: false, reason: "invalid" });
    expect(await linkTarget(database.db, "signup", token)).toBeNull();
  });

  it("the link carries where the sign-up was going (another browser may open it): an app path only", async () => {
    const email = "sign.up.add@example.com";
    const target = "/learn/courses?occflow=addToMyCourses&objectiveId=00000000-0000-4000-8000-000000000001";
    await requestSignUp(
      database.db,
      { firstName: "Sig", lastName: "Nup", email },
      { locale: "en-US", appUrl: APP, target },
    );
    const [mail] = await mails(email);
    expect(mail.text).toContain(
      `${APP}/oidc/login?confirm=${tokenIn(mail.text, "confirm")}&redirectUrl=${encodeURIComponent(target)}`,
    );
  });

  it.each([
    ["/learn/courses?occflow=addToMyCourses&objectiveId=x", "/learn/courses?occflow=addToMyCourses&objectiveId=x"],
    ["/learn", "/learn"],
    ["https://evil.example/learn", null],
    ["//evil.example/learn", null],
    ["/learn//evil.example", null],
    ["/learnx", null],
    ["/learn\\evil", null],
    [42, null],
    [`/learn/${"x".repeat(1100)}`, null],
  ])("signUpTarget(%s) → %s", (value, expected) => {
    expect(signUpTarget(value)).toBe(expected);
  });

  it("an address with an account gets a message saying so, no link, and nothing changes", async () => {
    const [ada] = await database.db.select().from(users).where(eq(users.email, "ada@example.com"));
    await requestSignUp(
      database.db,
      { firstName: "Not", lastName: "Ada", email: "ADA@example.com" },
      { locale: "en-US", appUrl: APP },
    );
    const [mail] = await mails("ada@example.com");
    expect(mail.kind).toBe("signupExisting");
    expect(tokenIn(mail.text, "confirm")).toBeNull();
    expect(mail.text).toContain(`${APP}/oidc/login?provider=forgot`);
    const [after] = await database.db.select().from(users).where(eq(users.id, ada.id));
    expect(after).toEqual(ada);
  });

  it("a link past its 24 hours no longer works; a new sign-up voids the earlier link", async () => {
    const t0 = new Date("2026-11-20T10:00:00Z");
    const email = "late@example.com";
    const input = { firstName: "Late", lastName: "Comer", email };
    await requestSignUp(database.db, input, { locale: "en-US", appUrl: APP, now: t0 });
    const [first] = (await mails(email)).map((m) => tokenIn(m.text, "confirm")!);
    expect(
      await confirmSignUp(database.db, first, "a long password", new Date(t0.getTime() + 24 * 3600_000 + 1)),
    ).toEqual({
      ok: false,
      reason: "invalid",
    });
    await requestSignUp(database.db, input, { locale: "en-US", appUrl: APP, now: t0 });
    await requestSignUp(database.db, input, { locale: "en-US", appUrl: APP, now: t0 });
    const [, second, third] = (await mails(email)).map((m) => tokenIn(m.text, "confirm")!);
    expect(await confirmSignUp(database.db, second, "a long password", new Date(t0.getTime() + 3600_000))).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect((await confirmSignUp(database.db, third, "a long password", new Date(t0.getTime() + 3600_000))).ok).toBe(
      true,
    );
    await requestSignUp(database.db, input, { locale: "en-US", appUrl: APP, now: t0 });
    // The third request found the account: a "you have an account" message, not a link.
    expect((await mails(email)).at(-1)!.kind).toBe("signupExisting");
  });
});

describe("an account taken before it exists (decision 050)", () => {
  it("an attacker's sign-up of the victim's address never makes her account with his password", async () => {
    const email = "victim@example.com";
    // The victim signs up, then the attacker (his sign-up voids hers); she opens the link that works.
    await requestSignUp(database.db, { firstName: "Vic", lastName: "Tim", email }, { locale: "en-US", appUrl: APP });
    await requestSignUp(
      database.db,
      { firstName: "Mallory", lastName: "Evil", email },
      { locale: "en-US", appUrl: APP },
    );
    const [hers, his] = (await mails(email)).map((m) => tokenIn(m.text, "confirm")!);
    expect(await linkTarget(database.db, "signup", hers)).toBeNull();
    // The link asks for the password: the one who holds the mailbox chooses it.
    const done = await confirmSignUp(database.db, his, "the victim's own password");
    expect(done.ok).toBe(true);
    const [u] = await database.db.select().from(users).where(eq(users.email, email));
    expect(await verifyPassword("the victim's own password", u.passwordHash)).toBe(true);
  });

  it("the sign-up mail greets nobody by the name typed in the form", async () => {
    const email = "greeting@example.com";
    await requestSignUp(
      database.db,
      { firstName: "Your account is locked", lastName: "X", email },
      { locale: "en-US", appUrl: APP },
    );
    const [mail] = await mails(email);
    expect(mail.text).not.toContain("Your account is locked");
    expect(mail.html).not.toContain("Your account is locked");
    expect(mail.text).toContain("Hello,");
  });
});

describe("password reset by e-mailed link", () => {
  it("an unknown address gets nothing; an account a link that works once, within 30 minutes, earlier links void", async () => {
    await requestPasswordReset(database.db, "nobody@example.com", { locale: "en-US", appUrl: APP });
    expect(await mails("nobody@example.com")).toEqual([]);

    const t0 = new Date("2026-11-20T10:00:00Z");
    const email = "grace@example.com";
    await requestPasswordReset(database.db, email, { locale: "en-US", appUrl: APP, now: t0 });
    await requestPasswordReset(database.db, email, { locale: "en-US", appUrl: APP, now: t0 });
    const [older, newer] = (await mails(email)).filter((m) => m.kind === "reset").map((m) => tokenIn(m.text, "reset")!);
    const soon = new Date(t0.getTime() + 60_000);
    expect(await resetPassword(database.db, older, "a new password", soon)).toEqual({ ok: false, reason: "invalid" });
    expect(await resetPassword(database.db, newer, "short", soon)).toEqual({
      ok: false,
      reason: "password",
      code: "passwordTooShort",
    });
    expect(await resetPassword(database.db, newer, "a new password", new Date(t0.getTime() + 30 * 60_000 + 1))).toEqual(
      {
        ok: false,
        reason: "invalid",
      },
    );

    await requestPasswordReset(database.db, email, { locale: "en-US", appUrl: APP, now: t0 });
    const latest = tokenIn((await mails(email)).at(-1)!.text, "reset")!;
    const done = await resetPassword(database.db, latest, "a new password", soon);
    expect(done.ok).toBe(true);
    const [grace] = await database.db.select().from(users).where(eq(users.email, email));
    expect(await verifyPassword("a new password", grace.passwordHash)).toBe(true);
    expect(await resetPassword(database.db, latest, "yet another one", soon)).toEqual({ ok: false, reason: "invalid" });
  });
});

describe("the outbox", () => {
  it("two senders at once send each message once, as .eml files without SMTP", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "outbox-"));
    await database.db.update(mailOutbox).set({ sentAt: new Date() });
    await requestPasswordReset(database.db, "admin@example.com", { locale: "fr", appUrl: APP });
    await requestSignUp(
      database.db,
      { firstName: "A", lastName: "B", email: "ab@example.com" },
      { locale: "fr", appUrl: APP },
    );
    const [a, b] = await Promise.all([
      sendPendingMail(database.db, { appUrl: APP, dataDir }),
      sendPendingMail(database.db, { appUrl: APP, dataDir }),
    ]);
    expect(a + b).toBe(2);
    expect(readdirSync(join(dataDir, "outbox"))).toHaveLength(2);
    expect(await sendPendingMail(database.db, { appUrl: APP, dataDir })).toBe(0);
    expect(
      (
        await database.db
          .select()
          .from(mailOutbox)
          .where(sql`${mailOutbox.sentAt} is null`)
      ).length,
    ).toBe(0);
  });

  it("a failed send is given back and tried again later", async () => {
    await requestPasswordReset(database.db, "rita@example.com", { locale: "en-US", appUrl: APP });
    // An SMTP server nobody listens on: the send fails, the row waits for the next run.
    expect(await sendPendingMail(database.db, { appUrl: APP, smtpUrl: "smtp://127.0.0.1:1" })).toBe(0);
    const [row] = await mails("rita@example.com");
    expect(row.sentAt).toBeNull();
    expect(row.attempts).toBe(1);
    expect(row.lastError).toBeTruthy();
    expect(await sendPendingMail(database.db, { appUrl: APP, dataDir: mkdtempSync(join(tmpdir(), "outbox-")) })).toBe(
      1,
    );
  });
});
