/**
 * Certificate rules (spec 3 'Certificate record', 5, 7.6). Pure: no I/O; time is a parameter.
 */
import { showPointsOnCertificate } from "./courses";

/** Prefix of the certificate numbers this LMS issues. */
const CERTIFICATE_NUMBER_PREFIX = "LA";

const DAY_MS = 86_400_000;

/**
 * Crockford's base 32: digits and capitals without I, L, O and U, so a number read out over the
 * phone or typed from paper has no look-alikes (decision 020).
 */
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** Random bytes behind a number: 80 bits (spec asks ≥ 64), 16 characters in four groups of four. */
export const CERTIFICATE_NUMBER_BYTES = 10;

/**
 * The certificate number: LA- and 80 random bits in Crockford base 32, grouped by four
 * for reading out, e.g. LA-7K3Q-9XWM-4TZR-1B8D. Guessing one is as hard as guessing 80 random bits;
 * a unique index in the database catches the (negligible) collision. `random` holds the bytes.
 */
export function formatCertificateNumber(random: Uint8Array, prefix = CERTIFICATE_NUMBER_PREFIX): string {
  if (random.length !== CERTIFICATE_NUMBER_BYTES)
    throw new RangeError(`a certificate number needs ${CERTIFICATE_NUMBER_BYTES} random bytes, got ${random.length}`);
  let bits = 0n;
  for (const b of random) bits = (bits << 8n) | BigInt(b);
  let chars = "";
  for (let i = 0; i < 16; i++) chars = CROCKFORD[Number((bits >> BigInt(i * 5)) & 31n)] + chars;
  return `${prefix}-${chars.match(/.{4}/g)!.join("-")}`;
}

/** Numbers of this LMS's first releases (LA-2026-000123): sequential, still valid where issued. */
const LEGACY_NUMBER = /^[A-Z]{2,8}-\d{4}-\d{6,15}$/;
const RANDOM_NUMBER = /^[A-Z]{2,8}(-[0-9A-HJKMNP-TV-Z]{4}){4}$/;

/** What a certificate number looks like (either form), for validating query filters. */
export const CERTIFICATE_NUMBER_PATTERN = new RegExp(`${LEGACY_NUMBER.source}|${RANDOM_NUMBER.source}`);

/**
 * A number as a person typed it, in its stored form: capitals, groups of four, and Crockford's
 * readings of look-alikes (O → 0, I and L → 1). Null when it cannot be a certificate number.
 */
export function normalizeCertificateNumber(input: string): string | null {
  const raw = input.trim().toUpperCase();
  if (raw.length > 40) return null;
  if (LEGACY_NUMBER.test(raw)) return raw;
  const m = /^([A-Z]{2,8})[-\s]*(.*)$/.exec(raw);
  if (!m) return null;
  const body = m[2].replace(/[-\s]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (!/^[0-9A-HJKMNP-TV-Z]{16}$/.test(body)) return null;
  return `${m[1]}-${body.match(/.{4}/g)!.join("-")}`;
}

/** Issue date + the template's validity in days; null validity (or none given) never expires. */
export function certificateExpiration(issued: Date, validityDays: number | null | undefined): Date | null {
  if (validityDays === null || validityDays === undefined) return null;
  if (!Number.isInteger(validityDays) || validityDays < 0)
    throw new RangeError(`validity must be a whole number of days ≥ 0, got ${validityDays}`);
  return new Date(issued.getTime() + validityDays * DAY_MS);
}

/**
 * Spec 5: a certificate is expired when the expiration date is now or past. No date (or one that
 * cannot be read) never expires.
 */
export function isCertificateExpired(expirationDate: string | Date | null | undefined, now: Date): boolean {
  if (expirationDate === null || expirationDate === undefined || expirationDate === "") return false;
  const t = expirationDate instanceof Date ? expirationDate.getTime() : Date.parse(expirationDate);
  if (Number.isNaN(t)) return false;
  return t <= now.getTime();
}

/** A certificate is issued for a resolved, passed record of a course that has a template. */
export function issuesCertificate(record: { passed: boolean | null }, templateId: string | null | undefined): boolean {
  return record.passed === true && !!templateId;
}

/** What the public page says of a certificate: revoked wins over expired. */
export type CertificateStatus = "valid" | "expired" | "revoked";
export function certificateStatus(
  cert: { expirationDate: string | Date | null | undefined; revoked: boolean },
  now: Date,
): CertificateStatus {
  if (cert.revoked) return "revoked";
  return isCertificateExpired(cert.expirationDate, now) ? "expired" : "valid";
}

/**
 * Spec 2.7 / 5: a certificate's score as a whole percent and, unless the maximum is 1 (a pass/fail
 * scale), 'x out of y points'. Null when the record has no score to show.
 */
export function certificateScore(result: {
  score: number | null;
  maxScore: number | null;
  normalizedScore: number | null;
}): { percent: number; points: { score: number; maxScore: number } | null } | null {
  const normalized =
    result.normalizedScore ?? (result.score !== null && result.maxScore ? result.score / result.maxScore : null);
  if (normalized === null || !Number.isFinite(normalized)) return null;
  const points =
    result.score !== null && result.maxScore !== null && showPointsOnCertificate(result.maxScore)
      ? { score: result.score, maxScore: result.maxScore }
      : null;
  return { percent: Math.round(normalized * 100), points };
}
