import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../api/db/client";
import { appSessions } from "../../api/db/schema";

/**
 * The web app's sessions as rows (decision 017). `server.ts` hands this store to the app through the
 * load context, so the app reaches it without importing `api/`, and uses it whether its LMS API is
 * the embedded one or an external one. Rows are found by the SHA-256 of the cookie's id; the token
 * field arrives sealed (the app encrypts it), so this module never sees a token.
 */
export interface NewSessionRow {
  subject: string;
  email: string | null;
  impersonatedBy: string | null;
  tokens: string;
  expiresAt: Date;
}

export interface LiveSessionRow {
  subject: string;
  tokens: string;
  lastSeenAt: Date;
}

export function createSessionStore(db: Db) {
  return {
    async create(idHash: string, row: NewSessionRow): Promise<void> {
      await db.insert(appSessions).values({ idHash, ...row, email: row.email?.toLowerCase() ?? null });
    },

    /** The session if it exists, is not revoked and has not expired; one primary-key read. */
    async find(idHash: string): Promise<LiveSessionRow | null> {
      const rows = await db
        .select({ subject: appSessions.subject, tokens: appSessions.tokens, lastSeenAt: appSessions.lastSeenAt })
        .from(appSessions)
        .where(
          and(eq(appSessions.idHash, idHash), isNull(appSessions.revokedAt), gt(appSessions.expiresAt, sql`now()`)),
        )
        .limit(1);
      return rows[0] ?? null;
    },

    async touch(idHash: string): Promise<void> {
      await db
        .update(appSessions)
        .set({ lastSeenAt: sql`now()` })
        .where(eq(appSessions.idHash, idHash));
    },

    async revoke(idHash: string): Promise<void> {
      await db
        .update(appSessions)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(appSessions.idHash, idHash), isNull(appSessions.revokedAt)));
    },
  };
}

/** Revokes every live session of a subject (user id) or e-mail; returns how many. */
export async function revokeSessionsOf(db: Db, who: { subject?: string; email?: string }): Promise<number> {
  const match = or(
    who.subject ? eq(appSessions.subject, who.subject) : undefined,
    who.email ? eq(appSessions.email, who.email.toLowerCase()) : undefined,
  );
  if (!match) return 0;
  const rows = await db
    .update(appSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(match, isNull(appSessions.revokedAt)))
    .returning({ idHash: appSessions.idHash });
  return rows.length;
}

export async function revokeAllSessions(db: Db): Promise<number> {
  const rows = await db
    .update(appSessions)
    .set({ revokedAt: sql`now()` })
    .where(isNull(appSessions.revokedAt))
    .returning({ idHash: appSessions.idHash });
  return rows.length;
}

/** Live sessions, newest first (the operator's `list`); never the tokens. */
export async function listSessions(db: Db, limit = 200) {
  return db
    .select({
      subject: appSessions.subject,
      email: appSessions.email,
      impersonatedBy: appSessions.impersonatedBy,
      createdAt: appSessions.createdAt,
      lastSeenAt: appSessions.lastSeenAt,
      expiresAt: appSessions.expiresAt,
      id: sql<string>`left(${appSessions.idHash}, 12)`,
    })
    .from(appSessions)
    .where(and(isNull(appSessions.revokedAt), gt(appSessions.expiresAt, sql`now()`)))
    .orderBy(sql`${appSessions.createdAt} desc`)
    .limit(limit);
}

/** Forgets sessions that ended more than a day ago (expired or revoked); run now and then. */
export async function deleteEndedSessions(db: Db): Promise<number> {
  const rows = await db
    .delete(appSessions)
    .where(
      or(
        lt(appSessions.expiresAt, sql`now() - interval '1 day'`),
        lt(appSessions.revokedAt, sql`now() - interval '1 day'`),
      ),
    )
    .returning({ idHash: appSessions.idHash });
  return rows.length;
}
