/**
 * What an operator can do to certificates (`npm run certificates -- list|revoke`, issue 32 item 4;
 * decisions 020, 041). A revocation sets the certificate's bit in the Bitstring Status List its
 * credential names, and the public page says "revoked" — both within their cache times (a minute).
 * Revocation is final: the status purpose is "revocation", which a verifier may have cached.
 */
import { and, desc, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { CERTIFICATE_NUMBER_PATTERN, normalizeCertificateNumber } from "../domain/certificates";
import type { Db } from "./db/client";
import { certificateRecords, objectives, users } from "./db/schema";

/** A refusal: its reason, nothing changed. */
export class CertificateCommandError extends Error {}

export const certificateCommand = z.discriminatedUnion("command", [
  z.object({
    command: z.literal("list"),
    /** Only this holder's (their e-mail). */
    user: z.email().max(320).optional(),
    revoked: z.boolean().default(false),
    limit: z.number().int().min(1).max(10_000).default(100),
  }),
  z.object({
    command: z.literal("revoke"),
    number: z.string().min(1).max(60),
    reason: z.string().trim().min(1, "give the reason with --reason").max(500),
  }),
]);
export type CertificateCommand = z.infer<typeof certificateCommand>;

const columns = {
  number: certificateRecords.certificateNumber,
  holder: users.email,
  course: objectives.code,
  issued: certificateRecords.created,
  expires: certificateRecords.expirationDate,
  statusListIndex: certificateRecords.statusListIndex,
  revokedAt: certificateRecords.revokedAt,
  reason: certificateRecords.revocationReason,
};

type ListCommand = Extract<CertificateCommand, { command: "list" }>;
type RevokeCommand = Extract<CertificateCommand, { command: "revoke" }>;

export function runCertificateCommand(db: Db, command: CertificateCommand, now: Date) {
  return command.command === "list" ? listCertificates(db, command) : revokeCertificate(db, command, now);
}

/** Newest first, by holder, only the revoked ones. */
export async function listCertificates(db: Db, command: Omit<ListCommand, "command">) {
  {
    const filters: (SQL | undefined)[] = [
      command.user ? sql`lower(${users.email}) = ${command.user.toLowerCase()}` : undefined,
      command.revoked ? isNotNull(certificateRecords.revokedAt) : undefined,
    ];
    return db
      .select(columns)
      .from(certificateRecords)
      .innerJoin(users, eq(users.id, certificateRecords.userId))
      .innerJoin(objectives, eq(objectives.id, certificateRecords.objectiveId))
      .where(and(...filters))
      .orderBy(desc(certificateRecords.created))
      .limit(command.limit);
  }
}

/** Revokes a certificate by its number (typed as people type them); a revoked one is left as it is. */
export async function revokeCertificate(
  db: Db,
  command: Omit<RevokeCommand, "command">,
  now: Date,
): Promise<Awaited<ReturnType<typeof listCertificates>>[number] & { changed: boolean }> {
  const number = normalizeCertificateNumber(command.number);
  if (!number || !CERTIFICATE_NUMBER_PATTERN.test(number))
    throw new CertificateCommandError(`"${command.number}" is not a certificate number (like LA-7K3Q-9XWM-4TZR-1B8D).`);
  const [row] = await db
    .select({ id: certificateRecords.id, ...columns })
    .from(certificateRecords)
    .innerJoin(users, eq(users.id, certificateRecords.userId))
    .innerJoin(objectives, eq(objectives.id, certificateRecords.objectiveId))
    .where(eq(certificateRecords.certificateNumber, number))
    .limit(1);
  if (!row) throw new CertificateCommandError(`No certificate has the number ${number}.`);
  const { id, ...shown } = row;
  // Revoked already: nothing changes (the first reason and date stay).
  if (row.revokedAt) return { ...shown, changed: false };
  // Only while not revoked: of two operators at once, the first one's date and reason stay.
  const [revoked] = await db
    .update(certificateRecords)
    .set({ revokedAt: now, revocationReason: command.reason })
    .where(and(eq(certificateRecords.id, id), isNull(certificateRecords.revokedAt)))
    .returning({ revokedAt: certificateRecords.revokedAt, reason: certificateRecords.revocationReason });
  if (!revoked) return revokeCertificate(db, command, now);
  return { ...shown, ...revoked, changed: true };
}
