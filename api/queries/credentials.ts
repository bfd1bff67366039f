// The data behind a certificate's credential and the status list (decision 020).
import { asc } from "drizzle-orm";
import type { JWK } from "jose";
import { certificateScore } from "../../domain/certificates";
import type { Db } from "../db/client";
import { tenants } from "../db/schema";
import {
  buildCredential,
  credentialKey,
  credentialUrls,
  recipientId,
  signCredential,
  statusListCredential,
} from "../credentials";
import { holderName } from "../mappers/certificates";
import type { CertificateRow } from "./certificates";

/** The issuer's name: the platform's first tenant (one issuer per installation). */
export async function issuerName(db: Db): Promise<string> {
  const [t] = await db.select({ name: tenants.name }).from(tenants).orderBy(asc(tenants.createdAt)).limit(1);
  return t?.name ?? "Learner app";
}

/** The certificate as a signed OpenBadgeCredential (compact JWS). */
export async function certificateCredential(db: Db, appUrl: string, row: CertificateRow, signingKey?: JWK) {
  const [name, key] = await Promise.all([issuerName(db), credentialKey(signingKey)]);
  const score = certificateScore(row.result);
  const credential = buildCredential(appUrl, {
    number: row.c.certificateNumber,
    recipient: recipientId(row.c.userId, key.secret),
    statusListIndex: row.c.statusListIndex,
    templateName: row.c.templateName,
    holderName: holderName(row.student),
    holderEmail: row.student.email,
    course: row.objective,
    issued: row.c.created,
    expires: row.c.expirationDate,
    result: { grade: row.result.grade?.name ?? null, percent: score?.percent ?? null },
    issuerName: name,
  });
  return signCredential(credential, key, credentialUrls(appUrl).key(key.kid));
}

export const statusList = statusListCredential;
