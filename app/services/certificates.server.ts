/**
 * The certificate screens (spec 2.7, issue 12): the holder's preview and the public page, built from
 * the API's records with the domain's rules (expiry at the boundary, score display, status).
 */
import { data } from "react-router";
import {
  certificateScore,
  certificateStatus,
  normalizeCertificateNumber,
  type CertificateStatus,
} from "#domain/certificates";
import type { CertificateRecord, PublicCertificate } from "#domain/contract/certificates";
import { endpoints } from "#domain/contract/endpoints";
import type { DateFormatter } from "./format.server";
import { LmsError, type LmsClient } from "./lms.server";
import { certificatePreviewUrl } from "./course-page.server";

const NOT_FOUND = "certificate-not-found";

/** A number from the URL in its stored form, or a 404 (a garbled one is simply not a certificate). */
/** The certificate's three files (PDF, image, Open Badges credential) under its base path. */
function downloadLinks(base: string) {
  return { pdf: `${base}/download/pdf`, png: `${base}/download/png`, credential: `${base}/download/credential` };
}

export function requireCertificateNumber(raw: string | undefined): string {
  const number = raw ? normalizeCertificateNumber(raw) : null;
  if (!number) throw data(NOT_FOUND, { status: 404 });
  return number;
}

const notFoundIs = (err: unknown) => {
  if (err instanceof LmsError && err.status === 404) throw data(NOT_FOUND, { status: 404 });
  throw err;
};

/** The learner's own certificate by number (scoped to the caller by the API), for this course. */
export async function loadOwnCertificate(lms: LmsClient, objectiveId: string, number: string) {
  const found = await lms.get(endpoints.certificateRecords, { certificateNumber: number, take: 1 }).catch(notFoundIs);
  const record = found.data[0];
  if (!record || record.objectiveId !== objectiveId) throw data(NOT_FOUND, { status: 404 });
  return record;
}

function scoreOf(result: { score: number | null; maxScore: number | null; normalizedScore: number | null }) {
  return certificateScore(result);
}

/** Spec 2.7: what the preview shows, dates in the learner's zone. */
export function previewView(
  record: CertificateRecord,
  course: { name: string; code: string; description: string },
  student: string,
  fmt: DateFormatter,
  now: Date,
  appUrl: string,
) {
  const base = certificatePreviewUrl(record.objectiveId, record.certificateNumber);
  const status = certificateStatus({ expirationDate: record.expirationDate, revoked: record.revoked }, now);
  return {
    templateName: record.certificateTemplate.name,
    number: record.certificateNumber,
    student,
    course,
    issued: fmt.date(record.created),
    completed: fmt.date(record.objectiveRecord.finished),
    expires: fmt.date(record.expirationDate),
    status,
    passed: record.objectiveRecord.passed,
    score: scoreOf(record.objectiveRecord),
    grade: record.objectiveRecord.grade,
    downloads: downloadLinks(base),
    shareUrl: publicCertificateUrl(appUrl, record.certificateNumber),
    // The raw dates, for "Add to LinkedIn profile" (months, in UTC).
    issuedAt: record.created,
    expiresAt: record.expirationDate,
  };
}
export type PreviewView = ReturnType<typeof previewView>;

function publicCertificateUrl(appUrl: string, number: string) {
  return `${appUrl}/learn/certificate/${encodeURIComponent(number)}`;
}

/**
 * The public lookup, remembered for 20 s per number, never answered older than that: with the HTTP
 * front's 10 s memory of the page (`server.ts`) and the browser's 30 s (`max-age`), a revocation shows
 * within a minute. Failures (an unknown number) are not remembered: each one counts against
 * the caller's lookup limit in the API.
 */
const PUBLIC_CERTIFICATE_TTL_MS = 20_000;
const publicCache = new Map<string, { expires: number; value: Promise<PublicCertificate> }>();
export function loadPublicCertificate(lms: LmsClient, number: string): Promise<PublicCertificate> {
  const now = Date.now();
  const hit = publicCache.get(number);
  if (hit && hit.expires > now) return hit.value.catch(notFoundIs);
  const value = lms.get(endpoints.publicCertificate(number));
  publicCache.delete(number);
  publicCache.set(number, { expires: now + PUBLIC_CERTIFICATE_TTL_MS, value });
  value.catch(() => publicCache.get(number)?.value === value && publicCache.delete(number));
  if (publicCache.size > 2_000) publicCache.delete(publicCache.keys().next().value!);
  return value.catch(notFoundIs);
}

/** What the public page shows: never the e-mail or other records (the API sends none). */
export function publicView(cert: PublicCertificate, fmt: DateFormatter, now: Date, appUrl: string) {
  const status: CertificateStatus = certificateStatus(
    { expirationDate: cert.expirationDate, revoked: cert.revoked },
    now,
  );
  const base = `/learn/certificate/${encodeURIComponent(cert.certificateNumber)}`;
  return {
    templateName: cert.certificateTemplate.name,
    number: cert.certificateNumber,
    holder: cert.student.name,
    course: { name: cert.objective.name, code: cert.objective.code },
    issued: fmt.date(cert.created),
    expires: fmt.date(cert.expirationDate),
    status,
    // The API lists a certificate only where its result is revealed (spec 4.7): the grade goes with it.
    grade: cert.result.grade?.name ?? null,
    downloads: downloadLinks(base),
    // What a shared link's preview card and "Add to LinkedIn profile" need.
    shareUrl: publicCertificateUrl(appUrl, cert.certificateNumber),
    imageUrl: `${appUrl}${downloadLinks(base).png}`,
    issuedAt: cert.created,
    expiresAt: cert.expirationDate,
  };
}
export type PublicView = ReturnType<typeof publicView>;
