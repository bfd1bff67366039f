import { and, eq, lt, sql } from "drizzle-orm";
import type { Adapter, AdapterPayload } from "oidc-provider";
import type { Db } from "../api/db/client";
import { oidcModels } from "../api/db/schema";

/**
 * oidc-provider's storage in the database (decision 017): its sessions, grants, codes, tokens and
 * interactions survive a restart, and every node on one PostgreSQL sees the same ones. One table,
 * keyed by model and id; the columns the provider looks rows up by (grant, uid, user code) and the
 * account (for an operator's revoke) are copied out of the payload.
 */
export function drizzleAdapter(db: Db): new (name: string) => Adapter {
  return class DrizzleAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const row = {
        model: this.model,
        id,
        payload,
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        accountId: payload.accountId ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
        consumedAt: null,
      };
      await db
        .insert(oidcModels)
        .values(row)
        .onConflictDoUpdate({
          target: [oidcModels.model, oidcModels.id],
          set: {
            payload: row.payload,
            grantId: row.grantId,
            userCode: row.userCode,
            uid: row.uid,
            accountId: row.accountId,
            expiresAt: row.expiresAt,
          },
        });
    }

    private async findWhere(where: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
      const rows = await db
        .select({ payload: oidcModels.payload, consumedAt: oidcModels.consumedAt })
        .from(oidcModels)
        .where(
          and(
            eq(oidcModels.model, this.model),
            where,
            sql`(${oidcModels.expiresAt} is null or ${oidcModels.expiresAt} > now())`,
          ),
        )
        .limit(1);
      const found = rows[0];
      if (!found) return undefined;
      const payload = found.payload as AdapterPayload;
      return found.consumedAt ? { ...payload, consumed: Math.floor(found.consumedAt.getTime() / 1000) } : payload;
    }

    find(id: string) {
      return this.findWhere(eq(oidcModels.id, id));
    }

    findByUid(uid: string) {
      return this.findWhere(eq(oidcModels.uid, uid));
    }

    findByUserCode(userCode: string) {
      return this.findWhere(eq(oidcModels.userCode, userCode));
    }

    async consume(id: string): Promise<void> {
      await db
        .update(oidcModels)
        .set({ consumedAt: sql`now()` })
        .where(and(eq(oidcModels.model, this.model), eq(oidcModels.id, id)));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oidcModels).where(and(eq(oidcModels.model, this.model), eq(oidcModels.id, id)));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(oidcModels).where(eq(oidcModels.grantId, grantId));
    }
  };
}

/** Deletes what has expired (the provider never finds it again); run now and then. Returns the count. */
export async function deleteExpiredModels(db: Db): Promise<number> {
  const gone = await db
    .delete(oidcModels)
    .where(lt(oidcModels.expiresAt, sql`now()`))
    .returning({ id: oidcModels.id });
  return gone.length;
}

/** Ends every provider session and grant of an account (an operator's revoke, a password change). */
export async function revokeAccountModels(db: Db, accountId: string): Promise<number> {
  const grants = db
    .select({ id: oidcModels.id })
    .from(oidcModels)
    .where(and(eq(oidcModels.model, "Grant"), eq(oidcModels.accountId, accountId)));
  const gone = await db
    .delete(oidcModels)
    .where(sql`${oidcModels.accountId} = ${accountId} or ${oidcModels.grantId} in (${grants})`)
    .returning({ id: oidcModels.id });
  return gone.length;
}

/** Ends every provider session and grant (an operator's revoke --all). */
export async function revokeAllModels(db: Db): Promise<number> {
  const gone = await db
    .delete(oidcModels)
    .where(sql`${oidcModels.model} in ('Session', 'Grant', 'AccessToken', 'RefreshToken', 'AuthorizationCode')`)
    .returning({ id: oidcModels.id });
  return gone.length;
}
