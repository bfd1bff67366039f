/**
 * The bearer tokens of SCIM clients (decision 059): `npm run ops -- scim token create|list|revoke`. A token is
 * `scim_<row id>_<secret>`; only the secret's SHA-256 is stored, and a presented token is checked against its
 * own row's hash with `timingSafeEqual`. The token is shown once, when it is made, and never logged.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { log } from "../db/log";
import { scimTokens, tenants } from "../db/schema";
import { defaultTenantId } from "../settings";

const TOKEN = /^scim_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

const hashOf = (secret: string) => createHash("sha256").update(secret).digest();

export const scimTokenCommand = z.discriminatedUnion("command", [
  z.object({
    command: z.literal("create"),
    label: z.string().trim().min(1).max(200),
    /** The tenant's domain; the default tenant when absent. */
    tenant: z.string().trim().min(1).max(253).optional(),
  }),
  z.object({ command: z.literal("list") }),
  z.object({ command: z.literal("revoke"), id: z.uuid() }),
]);
export type ScimTokenCommand = z.infer<typeof scimTokenCommand>;

export class ScimTokenError extends Error {}

export async function runScimTokenCommand(db: Db, input: ScimTokenCommand): Promise<unknown> {
  switch (input.command) {
    case "create": {
      const tenantId = input.tenant
        ? (await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.domain, input.tenant)).limit(1))[0]?.id
        : await defaultTenantId(db);
      if (!tenantId)
        throw new ScimTokenError(input.tenant ? `No tenant with the domain ${input.tenant}` : "No tenant yet");
      const secret = randomBytes(32).toString("base64url");
      const [row] = await db
        .insert(scimTokens)
        .values({ tenantId, label: input.label, secretHash: hashOf(secret).toString("hex") })
        .returning({ id: scimTokens.id });
      log().info({ id: row.id, label: input.label, tenantId }, "scim: token created");
      return { id: row.id, label: input.label, token: `scim_${row.id}_${secret}` };
    }
    case "list":
      return {
        tokens: await db
          .select({
            id: scimTokens.id,
            label: scimTokens.label,
            tenant: tenants.domain,
            createdAt: scimTokens.createdAt,
            lastUsedAt: scimTokens.lastUsedAt,
            revokedAt: scimTokens.revokedAt,
          })
          .from(scimTokens)
          .innerJoin(tenants, eq(tenants.id, scimTokens.tenantId))
          .orderBy(desc(scimTokens.createdAt)),
      };
    case "revoke": {
      const rows = await db
        .update(scimTokens)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(scimTokens.id, input.id), isNull(scimTokens.revokedAt)))
        .returning({ id: scimTokens.id });
      if (!rows.length) throw new ScimTokenError(`No live SCIM token ${input.id}`);
      log().info({ id: input.id }, "scim: token revoked");
      return { revoked: input.id };
    }
  }
}

/** The tenant a presented bearer token provisions, or null (unknown, malformed, revoked). */
export async function scimTokenTenant(db: Db, token: string): Promise<{ tenantId: string; tokenId: string } | null> {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [row] = await db
    .select({ tenantId: scimTokens.tenantId, secretHash: scimTokens.secretHash, lastUsedAt: scimTokens.lastUsedAt })
    .from(scimTokens)
    .where(and(eq(scimTokens.id, match[1]), isNull(scimTokens.revokedAt)))
    .limit(1);
  if (!row) return null;
  const want = Buffer.from(row.secretHash, "hex");
  const got = hashOf(match[2]);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
  // Last use, to the minute: what `scim token list` shows an operator deciding what to revoke.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000)
    await db
      .update(scimTokens)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(scimTokens.id, match[1]));
  return { tenantId: row.tenantId, tokenId: match[1] };
}
