import { describe, expect, it } from "vitest";
import {
  afterResubscribe,
  afterUnsubscribe,
  DEFAULT_MAIL_PREFERENCES,
  digestDue,
  dueSoon,
  localDayAndHour,
  maskEmail,
  subscribedTo,
  turnedOff,
  UNSUBSCRIBE_KINDS,
} from "./mail-preferences";

const NOW = new Date("2026-06-01T12:00:00Z");

describe("the undo of an unsubscribe", () => {
  it.each([
    // [preferences before, link kind]: the undo gives back exactly what the unsubscribe took.
    [{ ...DEFAULT_MAIL_PREFERENCES }, "announcements"],
    [{ ...DEFAULT_MAIL_PREFERENCES, grades: false }, "dueReminders"],
    [{ ...DEFAULT_MAIL_PREFERENCES, dailyDigest: true }, "digest"],
    [{ ...DEFAULT_MAIL_PREFERENCES, dailyDigest: true, reinforcement: false }, "digest"],
  ] as const)("%o, the %s link: unsubscribe then undo is where she was", (before, kind) => {
    const off = afterUnsubscribe(before, kind);
    const restore = turnedOff(before, off);
    expect(subscribedTo(off, kind)).toBe(false);
    expect(afterResubscribe(off, kind, restore)).toEqual(before);
  });

  it("the digest's undo turns on only what the unsubscribe turned off", () => {
    const before = { ...DEFAULT_MAIL_PREFERENCES, dailyDigest: true, announcements: false };
    const restore = turnedOff(before, afterUnsubscribe(before, "digest"));
    expect(restore).toEqual(["reinforcement", "dueReminders", "grades"]);
  });
});

describe("afterUnsubscribe / subscribedTo (issue 31 item 2)", () => {
  it.each(["reinforcement", "dueReminders", "announcements", "grades"] as const)(
    "a %s link turns off that kind only",
    (kind) => {
      const after = afterUnsubscribe(DEFAULT_MAIL_PREFERENCES, kind);
      expect(after[kind]).toBe(false);
      expect(subscribedTo(after, kind)).toBe(false);
      for (const other of ["reinforcement", "dueReminders", "announcements", "grades"] as const)
        if (other !== kind) expect(after[other]).toBe(true);
    },
  );

  it("the digest's link turns off everything the digest carried", () => {
    const prefs = { ...DEFAULT_MAIL_PREFERENCES, dailyDigest: true };
    expect(subscribedTo(prefs, "digest")).toBe(true);
    const after = afterUnsubscribe(prefs, "digest");
    expect(after).toEqual({
      reinforcement: false,
      dueReminders: false,
      announcements: false,
      grades: false,
      dailyDigest: false,
    });
    for (const kind of UNSUBSCRIBE_KINDS) expect(subscribedTo(after, kind)).toBe(false);
  });

  it("a digest with only grades on still comes (decision 058)", () => {
    expect(
      subscribedTo(
        { reinforcement: false, dueReminders: false, announcements: false, grades: true, dailyDigest: true },
        "digest",
      ),
    ).toBe(true);
  });

  it("a digest with every kind off is no digest", () => {
    expect(
      subscribedTo(
        { reinforcement: false, dueReminders: false, announcements: false, grades: false, dailyDigest: true },
        "digest",
      ),
    ).toBe(false);
  });
});

describe("dueSoon: within 24 hours, not past", () => {
  it.each([
    ["2026-06-01T12:00:00Z", false],
    ["2026-06-01T12:00:01Z", true],
    ["2026-06-02T12:00:00Z", true],
    ["2026-06-02T12:00:01Z", false],
    ["2026-05-31T12:00:00Z", false],
    [null, false],
    ["garbage", false],
  ])("due %s → %s", (due, soon) => expect(dueSoon(due, NOW)).toBe(soon));
});

describe("localDayAndHour / digestDue: 08:00 in the learner's zone", () => {
  it.each([
    ["UTC", "2026-06-01", 12],
    [null, "2026-06-01", 12],
    ["Asia/Tokyo", "2026-06-01", 21],
    ["America/Los_Angeles", "2026-06-01", 5],
    ["Pacific/Kiritimati", "2026-06-02", 2],
    ["Not/AZone", "2026-06-01", 12],
  ])("%s → %s %s h", (zone, day, hour) => {
    expect(localDayAndHour(NOW, zone)).toEqual({ day, hour });
  });

  it("is due from 08:00 of the local day on", () => {
    expect(digestDue(NOW, "America/Los_Angeles")).toBeNull();
    expect(digestDue(NOW, "Asia/Tokyo")).toBe("2026-06-01");
    expect(digestDue(new Date("2026-06-01T08:00:00Z"), "UTC")).toBe("2026-06-01");
    expect(digestDue(new Date("2026-06-01T07:59:59Z"), "UTC")).toBeNull();
  });
});

describe("maskEmail", () => {
  it.each([
    ["ada@example.com", "ad…@example.com"],
    ["a@b.org", "a…@b.org"],
    ["broken", "…"],
  ])("%s → %s", (email, masked) => expect(maskEmail(email)).toBe(masked));
});
