/**
 * Certificate rules (spec 3 'Certificate record', 5, 7.6). Pure: no I/O; time is a parameter.
 */

/** Prefix of the certificate numbers this LMS issues. */
export const CERTIFICATE_NUMBER_PREFIX = "LA";

const DAY_MS = 86_400_000;

/**
 * The human-readable certificate number: prefix, the UTC year of issue and a running number of at
 * least six digits, e.g. LA-2026-000123. The running number comes from one database sequence, so
 * numbers are unique across years; the year only helps people read them.
 */
export function formatCertificateNumber(issued: Date, sequence: number, prefix = CERTIFICATE_NUMBER_PREFIX): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1)
    throw new RangeError(`certificate sequence must be a positive integer, got ${sequence}`);
  return `${prefix}-${issued.getUTCFullYear()}-${String(sequence).padStart(6, "0")}`;
}

/** What a certificate number looks like, for validating query filters. */
export const CERTIFICATE_NUMBER_PATTERN = /^[A-Z]{2,8}-\d{4}-\d{6,15}$/;

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
