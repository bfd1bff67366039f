import { describe, expect, it } from "vitest";
import { createLiteI18n } from "~/common/i18n";
import type { CourseCardFooter } from "#domain/courses";
import { ObjectiveWorkflowState } from "#domain/vocabulary";
import { courseCardFooterText } from "./course-lists.server";
import { dateFormatter } from "./format.server";
import { translationsFor } from "./i18n.server";

/** Spec 4.11: a card's footer as the learner reads it, in English and in German, dates in their time zone. */
describe("courseCardFooterText (spec 4.11)", () => {
  const en = createLiteI18n("en-US", translationsFor("en-US"));
  const de = createLiteI18n("de", translationsFor("de"));
  // 23:30 UTC on 14 July is already 15 July in Tokyo.
  const late = "2026-07-14T23:30:00Z";
  const rows: {
    footer: CourseCardFooter;
    state?: ObjectiveWorkflowState | null;
    zone?: string;
    english: string;
  }[] = [
    { footer: { kind: "availableFrom", date: late }, english: "Available from Jul 14, 2026" },
    { footer: { kind: "availableFrom", date: late }, zone: "Asia/Tokyo", english: "Available from Jul 15, 2026" },
    { footer: { kind: "notStarted" }, english: "Not started" },
    { footer: { kind: "started", date: late, progress: 0.354 }, english: "Started Jul 14, 2026 · 35% done" },
    { footer: { kind: "submitted", date: late, progress: 1 }, english: "Submitted Jul 14, 2026 · 100% done" },
    { footer: { kind: "completed", date: late }, english: "Completed Jul 14, 2026" },
    { footer: { kind: "completed", date: null }, english: "Finished" },
    { footer: { kind: "due", date: late }, english: "Due Jul 14, 2026" },
    // No due date: the workflow's state, or "Not Started" without one.
    { footer: { kind: "due", date: null }, state: ObjectiveWorkflowState.graded, english: "Graded" },
    { footer: { kind: "due", date: null }, state: null, english: "Not Started" },
  ];
  it.each(rows)("$footer.kind ($zone) → $english", ({ footer, state = null, zone = "UTC", english }) => {
    expect(courseCardFooterText(footer, state, dateFormatter("en-US", zone), en.t)).toBe(english);
  });

  it("is in the learner's language", () => {
    const text = courseCardFooterText(
      { kind: "started", date: late, progress: 0.5 },
      null,
      dateFormatter("de", "UTC"),
      de.t,
    );
    expect(text).toContain("14.07.2026");
    expect(text).toContain("50");
    expect(text).not.toContain("Started");
  });
});
