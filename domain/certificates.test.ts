import { describe, expect, it } from "vitest";
import {
  CERTIFICATE_NUMBER_PATTERN,
  certificateExpiration,
  certificateScore,
  certificateStatus,
  formatCertificateNumber,
  normalizeCertificateNumber,
  isCertificateExpired,
  issuesCertificate,
} from "./certificates";

const ISSUED = new Date("2026-03-15T09:30:00.000Z");

const bytes = (...b: number[]) => Uint8Array.from(b);

describe("formatCertificateNumber (issue 12: ≥ 64 random bits, grouped for reading out)", () => {
  it.each([
    [bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0), "LA-0000-0000-0000-0000"],
    [bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 1), "LA-0000-0000-0000-0001"],
    [bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 31), "LA-0000-0000-0000-000Z"],
    [bytes(255, 255, 255, 255, 255, 255, 255, 255, 255, 255), "LA-ZZZZ-ZZZZ-ZZZZ-ZZZZ"],
    [bytes(0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x12, 0x34), "LA-28T5-CY4T-QKFF-04HM"],
  ])("%s → %s", (random, expected) => {
    expect(formatCertificateNumber(random)).toBe(expected);
    expect(expected).toMatch(CERTIFICATE_NUMBER_PATTERN);
  });

  it("carries 80 bits: 16 characters of 5 bits, none of I, L, O, U", () => {
    const n = formatCertificateNumber(bytes(1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
    expect(n.replace(/^LA-|-/g, "")).toHaveLength(16);
    expect(n.slice(3)).not.toMatch(/[ILOU]/);
  });

  it.each([9, 11, 0])("refuses %i random bytes", (length) => {
    expect(() => formatCertificateNumber(new Uint8Array(length))).toThrow(RangeError);
  });

  it.each([
    ["LA-28T5-CY4T-QKFG-2HMM", true],
    // Numbers of the first releases stay valid.
    ["LA-2026-000123", true],
    ["LA-2026-1000000", true],
    ["la-28t5-cy4t-qkfg-2hmm", false],
    ["LA-28T5-CY4T-QKFG-2HMU", false],
    ["LA-28T5-CY4T-QKFG", false],
    ["LA-2026-123", false],
    ["LA-2026-000123'; drop table x", false],
    ["", false],
  ])("the query pattern accepts %j: %s", (value, ok) => {
    expect(CERTIFICATE_NUMBER_PATTERN.test(value)).toBe(ok);
  });
});

describe("normalizeCertificateNumber (a number as a person typed it)", () => {
  it.each([
    ["LA-28T5-CY4T-QKFG-2HMM", "LA-28T5-CY4T-QKFG-2HMM"],
    ["la-28t5-cy4t-qkfg-2hmm", "LA-28T5-CY4T-QKFG-2HMM"],
    [" LA 28T5 CY4T QKFG 2HMM ", "LA-28T5-CY4T-QKFG-2HMM"],
    ["LA-28T5CY4TQKFG2HMM", "LA-28T5-CY4T-QKFG-2HMM"],
    // Crockford's look-alikes: O reads as 0, I and L as 1.
    ["LA-O0I1-L000-0000-0000", "LA-0011-1000-0000-0000"],
    ["LA-2026-000123", "LA-2026-000123"],
    ["LA-28T5-CY4T-QKFG-2HMU", null],
    ["LA-28T5", null],
    ["../etc/passwd", null],
    ["x".repeat(100), null],
  ])("%j → %j", (input, expected) => {
    expect(normalizeCertificateNumber(input)).toBe(expected);
  });
});

describe("certificateStatus (issue 12: valid, expired or revoked; spec 5 expiry at the boundary)", () => {
  const now = new Date("2026-06-01T12:00:00.000Z");
  it.each([
    [null, false, "valid"],
    ["2026-06-01T12:00:00.001Z", false, "valid"],
    // Spec 5: expired when the expiration date is now or past.
    ["2026-06-01T12:00:00.000Z", false, "expired"],
    ["2026-05-01T00:00:00.000Z", false, "expired"],
    [null, true, "revoked"],
    ["2026-05-01T00:00:00.000Z", true, "revoked"],
  ] as const)("expires %s, revoked %s → %s", (expirationDate, revoked, expected) => {
    expect(certificateStatus({ expirationDate, revoked }, now)).toBe(expected);
  });
});

describe("certificateScore (spec 2.7 / 5: percent, points hidden when max score is 1)", () => {
  it.each([
    [
      { score: 18, maxScore: 20, normalizedScore: 0.9 },
      { percent: 90, points: { score: 18, maxScore: 20 } },
    ],
    [
      { score: 1, maxScore: 1, normalizedScore: 1 },
      { percent: 100, points: null },
    ],
    [
      { score: 0.85, maxScore: 1, normalizedScore: null },
      { percent: 85, points: null },
    ],
    [
      { score: 7, maxScore: 9, normalizedScore: null },
      { percent: 78, points: { score: 7, maxScore: 9 } },
    ],
    [
      { score: null, maxScore: null, normalizedScore: 0.666 },
      { percent: 67, points: null },
    ],
    [{ score: null, maxScore: 10, normalizedScore: null }, null],
  ])("%j → %j", (result, expected) => {
    expect(certificateScore(result)).toEqual(expected);
  });
});

describe("certificateExpiration (issue date + template validity)", () => {
  it.each([
    [null, null],
    [undefined, null],
    [0, "2026-03-15T09:30:00.000Z"],
    [1, "2026-03-16T09:30:00.000Z"],
    [365, "2027-03-15T09:30:00.000Z"],
    // Whole days of 24 hours: daylight-saving changes do not move the instant.
    [30, "2026-04-14T09:30:00.000Z"],
  ])("validity %s days → %s", (days, expected) => {
    expect(certificateExpiration(ISSUED, days)?.toISOString() ?? null).toBe(expected);
  });

  it.each([-1, 1.5])("refuses a validity of %s days", (days) => {
    expect(() => certificateExpiration(ISSUED, days)).toThrow(RangeError);
  });
});

describe("isCertificateExpired (spec 5: expired when the expiration date is now or past)", () => {
  const EXPIRY = "2027-03-15T09:30:00.000Z";
  const at = (iso: string) => new Date(iso);
  it.each([
    ["one millisecond before", EXPIRY, at("2027-03-15T09:29:59.999Z"), false],
    ["exactly at the expiration date", EXPIRY, at(EXPIRY), true],
    ["one millisecond after", EXPIRY, at("2027-03-15T09:30:00.001Z"), true],
    ["a year after", EXPIRY, at("2028-03-15T09:30:00.000Z"), true],
    ["as a Date", new Date(EXPIRY), at(EXPIRY), true],
    ["no expiration date", null, at("2100-01-01T00:00:00.000Z"), false],
    ["undefined", undefined, at("2100-01-01T00:00:00.000Z"), false],
    ["an unreadable date", "not a date", at("2100-01-01T00:00:00.000Z"), false],
  ] as const)("%s", (_label, expiration, now, expected) => {
    expect(isCertificateExpired(expiration, now)).toBe(expected);
  });
});

describe("issuesCertificate (a passed record of a course with a template)", () => {
  it.each([
    [true, "template", true],
    [false, "template", false],
    [null, "template", false], // unresolved: waits for grading
    [true, null, false],
    [true, undefined, false],
  ] as const)("passed=%s template=%s → %s", (passed, template, expected) => {
    expect(issuesCertificate({ passed }, template)).toBe(expected);
  });
});
