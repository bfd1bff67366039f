import { createHash, randomBytes } from "node:crypto";
import { log } from "../../api/db/log";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../api/db/client";
import { hashPassword } from "../password";
import { impersonations, userRoles, users } from "../../api/db/schema";
import { revokeAccountModels, revokeAllModels } from "../adapter";
import { PASSWORD_MIN } from "../register";
import { listSessions, revokeAllSessions, revokeSessionsOf } from "./store";

/**
 * What an operator can do to sessions (`npm run sessions -- …`, decision 017). The CLI runs these
 * on the database directly, or — when a running server holds the embedded PGlite database — asks
 * that server to run them (`/operator/v1/sessions`, loopback and the operator token only).
 */
export const operatorCommand = z.discriminatedUnion("command", [
  z.object({ command: z.literal("list") }),
  z.object({ command: z.literal("revoke"), user: z.email().max(254) }),
  z.object({ command: z.literal("revoke-all") }),
  z.object({
    command: z.literal("set-password"),
    user: z.email().max(254),
    password: z.string().min(PASSWORD_MIN).max(1024),
  }),
  z.object({
    command: z.literal("impersonate"),
    admin: z.email().max(254),
    as: z.email().max(254),
    reason: z.string().max(500).optional(),
  }),
]);
export type OperatorCommand = z.infer<typeof operatorCommand>;

/** How long an impersonation link can be opened (once). */
const IMPERSONATION_TICKET_MINUTES = 10;

async function userByEmail(db: Db, email: string) {
  const rows = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return rows[0] ?? null;
}

/** Ends everything a user is signed in with: the app's session rows and the provider's sessions and grants. */
async function revokeEverywhere(db: Db, email: string) {
  const user = await userByEmail(db, email);
  const appSessions = await revokeSessionsOf(db, { subject: user?.id, email });
  const providerRecords = user ? await revokeAccountModels(db, user.id) : 0;
  return { appSessions, providerRecords };
}

export class OperatorError extends Error {}

export async function runOperatorCommand(db: Db, input: OperatorCommand, appUrl: string): Promise<unknown> {
  switch (input.command) {
    case "list":
      return { sessions: await listSessions(db) };
    case "revoke": {
      const result = await revokeEverywhere(db, input.user);
      log().info({ user: input.user, ...result }, "sessions: revoked a user's sessions");
      return result;
    }
    case "revoke-all": {
      const result = { appSessions: await revokeAllSessions(db), providerRecords: await revokeAllModels(db) };
      log().info(result, "sessions: revoked everyone's sessions");
      return result;
    }
    case "set-password": {
      const user = await userByEmail(db, input.user);
      if (!user) throw new OperatorError(`No account ${input.user}`);
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(input.password) })
        .where(eq(users.id, user.id));
      // A new password ends every session the old one opened.
      const result = await revokeEverywhere(db, input.user);
      log().info({ user: input.user, ...result }, "sessions: password changed, sessions revoked");
      return result;
    }
    case "impersonate": {
      const [admin, target] = await Promise.all([userByEmail(db, input.admin), userByEmail(db, input.as)]);
      if (!admin) throw new OperatorError(`No account ${input.admin}`);
      if (!target) throw new OperatorError(`No account ${input.as}`);
      const isAdmin = await db
        .select({ role: userRoles.role })
        .from(userRoles)
        .where(and(eq(userRoles.userId, admin.id), eq(userRoles.role, "Administrator")))
        .limit(1);
      if (!isAdmin[0]) throw new OperatorError(`${input.admin} is not an Administrator`);
      const ticket = randomBytes(24).toString("base64url");
      const expiresAt = new Date(Date.now() + IMPERSONATION_TICKET_MINUTES * 60_000);
      const [row] = await db
        .insert(impersonations)
        .values({
          adminUserId: admin.id,
          targetUserId: target.id,
          ticketHash: createHash("sha256").update(ticket).digest("hex"),
          reason: input.reason ?? null,
          expiresAt,
        })
        .returning({ id: impersonations.id });
      log().info(
        { impersonation: row.id, admin: admin.email, target: target.email, expiresAt },
        "sessions: impersonation ticket made",
      );
      return {
        id: row.id,
        expiresAt,
        url: `${appUrl}/oidc/login?impersonation=${ticket}&redirectUrl=%2Flearn`,
      };
    }
  }
}
