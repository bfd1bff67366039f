import { describe, expect, it } from "vitest";
import {
  CERTIFICATE_NUMBER_PATTERN,
  certificateExpiration,
  formatCertificateNumber,
  isCertificateExpired,
  issuesCertificate,
} from "./certificates";

const ISSUED = new Date("2026-03-15T09:30:00.000Z");

describe("formatCertificateNumber (spec 3: human-readable, unique)", () => {
  it.each([
    [ISSUED, 1, "LA-2026-000001"],
    [ISSUED, 123, "LA-2026-000123"],
    [ISSUED, 999_999, "LA-2026-999999"],
    // Past six digits the running number grows instead of wrapping (uniqueness wins over width).
    [ISSUED, 1_000_000, "LA-2026-1000000"],
    // The year is the UTC year of issue: 23:30 on 31 December in New York is already next year in UTC.
    [new Date("2026-12-31T23:30:00-05:00"), 6, "LA-2027-000006"],
    [new Date("2026-12-31T23:59:59.999Z"), 7, "LA-2026-000007"],
    [new Date("2027-01-01T00:00:00.000Z"), 8, "LA-2027-000008"],
  ])("%s #%i → %s", (issued, seq, expected) => {
    expect(formatCertificateNumber(issued, seq)).toBe(expected);
    expect(expected).toMatch(CERTIFICATE_NUMBER_PATTERN);
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses the running number %s", (seq) => {
    expect(() => formatCertificateNumber(ISSUED, seq)).toThrow(RangeError);
  });

  it.each([
    ["LA-2026-000123", true],
    ["LA-2026-1000000", true],
    ["la-2026-000123", false],
    ["LA-26-000123", false],
    ["LA-2026-123", false],
    ["LA-2026-000123'; drop table x", false],
    ["", false],
  ])("the query pattern accepts %j: %s", (value, ok) => {
    expect(CERTIFICATE_NUMBER_PATTERN.test(value)).toBe(ok);
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
