import { describe, expect, it } from "vitest";
import {
  activityCalendarItems,
  CalendarDate,
  calendarItemHref,
  dateIn,
  datesInRemembered,
  checkCalendarRange,
  courseCalendarItems,
  reinforcementCalendarItem,
  daysRange,
  dueSoonAndOverdue,
  eventDetails,
  formatWeekId,
  isDateOnly,
  isOverdue,
  ISO_WEEK,
  itemDays,
  minuteOfDay,
  monthGrid,
  overlaps,
  parseDay,
  parseMonthId,
  parseWeekId,
  segmentOn,
  sortItems,
  startOfDayIn,
  upcomingEvents,
  weekOf,
  weekRuleFor,
  weekStart,
  weeksInYear,
  zoneOrUtc,
  type CourseDates,
  type WeekRule,
} from "./calendar";
import type { CalendarItem } from "./contract/calendar";
import type { TreeNode } from "./contract/lifecycle";
import {
  ActivityContentType,
  ActivityKind,
  ActivityType,
  ActivityWorkflowState,
  ObjectiveState,
  ObjectiveWorkflowState,
} from "./vocabulary";

const d = (s: string) => parseDay(s)!;
const US: WeekRule = { firstDay: 7, minimalDays: 1 };
const SATURDAY: WeekRule = { firstDay: 6, minimalDays: 1 };

describe("ranges (issue 13: at most 100 days)", () => {
  const at = (s: string) => new Date(s);
  it.each([
    ["2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z", true, undefined],
    ["2026-11-01T00:00:00Z", "2027-02-09T00:00:00Z", true, undefined], // exactly 100 days
    ["2026-11-01T00:00:00Z", "2027-02-09T00:00:00.001Z", false, "tooLong"],
    ["2026-11-01T00:00:00Z", "2026-11-01T00:00:00Z", false, "order"],
    ["2026-12-01T00:00:00Z", "2026-11-01T00:00:00Z", false, "order"],
  ])("%s → %s ok=%s", (from, to, ok, error) => {
    const r = checkCalendarRange(at(from), at(to));
    expect(r.ok).toBe(ok);
    if (!r.ok) expect(r.error).toBe(error);
  });

  it("an item overlaps a range when it starts before its end and has not ended before its start", () => {
    const from = at("2026-11-23T00:00:00Z");
    const to = at("2026-11-30T00:00:00Z");
    expect(overlaps({ start: "2026-11-22T23:00:00Z", end: "2026-11-23T01:00:00Z" }, from, to)).toBe(true);
    expect(overlaps({ start: "2026-11-30T00:00:00Z", end: null }, from, to)).toBe(false);
    expect(overlaps({ start: "2026-11-22T23:59:59Z", end: null }, from, to)).toBe(false);
  });
});

describe("week rules per locale (getWeekInfo, CLDR fallback)", () => {
  it.each([
    ["en-US", 7, 1],
    ["pt-BR", 7, 1],
    ["ja", 7, 1],
    ["de", 1, 4],
    ["fr", 1, 4],
    ["sv", 1, 4],
    ["ar", 6, 1],
    ["he", 7, 1],
    ["zh-CN", 1, 1],
  ])("%s starts on day %i, first week has %i day(s)", (locale, firstDay, minimalDays) => {
    expect(weekRuleFor(locale)).toEqual({ firstDay, minimalDays });
  });

  it("an unknown tag falls back to Monday", () => {
    expect(weekRuleFor("zz").firstDay).toBe(1);
  });
});

describe("week numbering", () => {
  it.each([
    // ISO 8601 (de, fr…): the week with the year's first Thursday is week 1.
    ["2026-01-01", ISO_WEEK, "2026-W01"], // a Thursday
    ["2025-12-29", ISO_WEEK, "2026-W01"], // its Monday, still in 2025
    ["2027-01-01", ISO_WEEK, "2026-W53"], // a Friday: the last week of 2026
    ["2021-01-03", ISO_WEEK, "2020-W53"], // a Sunday
    ["2026-11-23", ISO_WEEK, "2026-W48"],
    ["2026-11-29", ISO_WEEK, "2026-W48"], // Sunday ends the ISO week
    // United States: Sunday first, the week holding January 1 is week 1.
    ["2026-11-29", US, "2026-W49"], // Sunday starts the US week
    ["2026-11-28", US, "2026-W48"],
    ["2025-12-28", US, "2026-W01"], // the Sunday before January 1
    ["2027-01-01", US, "2027-W01"],
    // Saturday first (ar).
    ["2026-11-28", SATURDAY, "2026-W49"], // week 1 began on Saturday 27 December 2025
    ["2026-11-27", SATURDAY, "2026-W48"],
  ])("%s is %s", (day, rule, id) => {
    expect(formatWeekId(weekOf(d(day), rule as WeekRule))).toBe(id);
  });

  it.each([
    [2026, ISO_WEEK, 53],
    [2025, ISO_WEEK, 52],
    [2020, ISO_WEEK, 53],
    [2026, US, 52],
    [2027, US, 52],
  ])("%i has %i weeks", (year, rule, weeks) => {
    expect(weeksInYear(year, rule as WeekRule)).toBe(weeks);
  });

  it("a week's first day, and the id round-trips", () => {
    expect(weekStart(2026, 48, ISO_WEEK).toString()).toBe("2026-11-23");
    expect(weekStart(2026, 48, US).toString()).toBe("2026-11-22");
    expect(weekStart(2026, 1, ISO_WEEK).toString()).toBe("2025-12-29");
    expect(parseWeekId("2026-W53", ISO_WEEK)).toEqual({ year: 2026, week: 53 });
    expect(parseWeekId("2026-W53", US)).toBeNull();
    for (const bad of ["2026-W00", "2026-W54", "2026-48", "x", "2026-W4", "0099-W01"])
      expect(parseWeekId(bad, ISO_WEEK)).toBeNull();
  });

  it("months and days parse only when real", () => {
    expect(parseMonthId("2026-11")).toEqual({ year: 2026, month: 11 });
    for (const bad of ["2026-13", "2026-00", "2026-1", "26-11", ""]) expect(parseMonthId(bad)).toBeNull();
    expect(parseDay("2026-02-29")).toBeNull();
    expect(parseDay("2028-02-29")?.toString()).toBe("2028-02-29");
    expect(parseDay("2026-11-23T00:00")).toBeNull();
  });

  it("the month grid holds whole weeks from the locale's first day", () => {
    const iso = monthGrid(2026, 11, ISO_WEEK);
    expect(iso.map((w) => formatWeekId(w.week))).toEqual([
      "2026-W44",
      "2026-W45",
      "2026-W46",
      "2026-W47",
      "2026-W48",
      "2026-W49",
    ]);
    expect(iso[0].days[0].toString()).toBe("2026-10-26");
    expect(iso[5].days[6].toString()).toBe("2026-12-06");
    const us = monthGrid(2026, 11, US);
    expect(us[0].days[0].toString()).toBe("2026-11-01"); // November 1st, 2026 is a Sunday
    expect(us).toHaveLength(5);
    const feb = monthGrid(2026, 2, US); // 28 days from a Sunday: exactly four rows
    expect(feb).toHaveLength(4);
  });
});

describe("days in the learner's time zone", () => {
  it.each([
    // Europe/Berlin: 29 March 2026 has 23 hours, 25 October 2026 has 25.
    ["2026-03-29", "Europe/Berlin", "2026-03-28T23:00:00.000Z", 23],
    ["2026-10-25", "Europe/Berlin", "2026-10-24T22:00:00.000Z", 25],
    ["2026-11-23", "Europe/Berlin", "2026-11-22T23:00:00.000Z", 24],
    // America/Santiago skips midnight on 6 September 2026: the day starts at 01:00.
    ["2026-09-06", "America/Santiago", "2026-09-06T04:00:00.000Z", 23],
    ["2026-11-23", "UTC", "2026-11-23T00:00:00.000Z", 24],
  ])("%s in %s starts at %s and lasts %i hours", (day, zone, start, hours) => {
    const { from, to } = daysRange(d(day), d(day), zone);
    expect(from.toISOString()).toBe(start);
    expect((to.getTime() - from.getTime()) / 3_600_000).toBe(hours);
  });

  it.each([
    // The last second of a day and the first of the next, in zones whose offsets are whole hours,
    // half hours and quarter hours, with and without summer time (spec 4.12: items on the learner's days).
    ["2026-11-27T22:59:59Z", "Europe/Berlin", "2026-11-27"],
    ["2026-11-27T23:00:00Z", "Europe/Berlin", "2026-11-28"],
    ["2026-03-29T00:59:59Z", "Europe/Berlin", "2026-03-29"],
    ["2026-11-27T18:29:59Z", "Asia/Kolkata", "2026-11-27"],
    ["2026-11-27T18:30:00Z", "Asia/Kolkata", "2026-11-28"],
    ["2026-11-27T18:14:59Z", "Asia/Kathmandu", "2026-11-27"],
    ["2026-11-27T18:15:00Z", "Asia/Kathmandu", "2026-11-28"],
    ["2026-11-28T03:29:59Z", "America/St_Johns", "2026-11-27"],
    ["2026-11-28T03:30:00Z", "America/St_Johns", "2026-11-28"],
    ["2026-11-27T10:14:59Z", "Pacific/Chatham", "2026-11-27"],
    ["2026-11-27T10:15:00Z", "Pacific/Chatham", "2026-11-28"],
    // One instant, two zones: each its own date (what is remembered is per zone).
    ["2026-11-27T23:30:00Z", "UTC", "2026-11-27"],
    ["2026-11-27T23:30:00Z", "Asia/Tokyo", "2026-11-28"],
  ])("%s is on %s's %s, asked once or again", (at, zone, date) => {
    expect(dateIn(new Date(at), zone).toString()).toBe(date);
    expect(dateIn(new Date(at), zone).toString()).toBe(date);
  });

  it("remembers at most 10,000 civil dates", () => {
    const from = Date.parse("2026-01-01T00:00:00Z");
    for (let n = 0; n < 12_000; n++) dateIn(new Date(from + n * 60_000), "Europe/Berlin");
    expect(datesInRemembered()).toBeLessThanOrEqual(10_000);
    expect(datesInRemembered()).toBeGreaterThan(0);
    // Still right after being forgotten: 12,000 minutes after New Year is 9 January in Berlin.
    expect(dateIn(new Date(from + 11_999 * 60_000), "Europe/Berlin").toString()).toBe("2026-01-09");
  });

  it("unknown zones show UTC", () => {
    expect(zoneOrUtc("Mars/Olympus")).toBe("UTC");
    expect(zoneOrUtc(null)).toBe("UTC");
    expect(zoneOrUtc("Asia/Tokyo")).toBe("Asia/Tokyo");
    // Asked again (the known zones are remembered, the unknown ones never): the same answers.
    expect(zoneOrUtc("Asia/Tokyo")).toBe("Asia/Tokyo");
    expect(zoneOrUtc("Mars/Olympus")).toBe("UTC");
    expect(zoneOrUtc("")).toBe("UTC");
  });

  it.each([
    // 21:30–23:30 UTC is one day in London (winter) but spans midnight in Berlin and is the next day in Tokyo.
    ["Europe/London", ["2026-11-23"]],
    ["Europe/Berlin", ["2026-11-23", "2026-11-24"]],
    ["Asia/Tokyo", ["2026-11-24"]],
    ["America/New_York", ["2026-11-23"]],
  ])("an evening event in %s falls on %j", (zone, days) => {
    const event = { start: "2026-11-23T21:30:00.000Z", end: "2026-11-23T23:30:00.000Z", allDay: false };
    expect(itemDays(event, zone)).toEqual(days);
  });

  it("an item spanning midnight continues on the next day; an end at midnight does not", () => {
    const event = { start: "2026-11-23T21:30:00.000Z", end: "2026-11-23T23:30:00.000Z", allDay: false };
    expect(segmentOn(event, "2026-11-23", "Europe/Berlin")).toEqual({ startsBefore: false, endsAfter: true });
    expect(segmentOn(event, "2026-11-24", "Europe/Berlin")).toEqual({ startsBefore: true, endsAfter: false });
    const toMidnight = { start: "2026-11-23T22:00:00.000Z", end: "2026-11-23T23:00:00.000Z", allDay: false };
    expect(itemDays(toMidnight, "Europe/Berlin")).toEqual(["2026-11-23"]);
  });

  it("an all-day item keeps its date in every zone", () => {
    const due = { start: "2026-11-30T00:00:00.000Z", end: null, allDay: true };
    for (const zone of ["America/Los_Angeles", "Pacific/Kiritimati", "UTC"])
      expect(itemDays(due, zone)).toEqual(["2026-11-30"]);
  });

  it("the now marker's minute of the day follows DST", () => {
    expect(minuteOfDay(new Date("2026-03-29T00:30:00Z"), "Europe/Berlin")).toBe(90); // 01:30 CET
    expect(minuteOfDay(new Date("2026-03-29T01:30:00Z"), "Europe/Berlin")).toBe(210); // 03:30 CEST
    expect(startOfDayIn(d("2026-03-29"), "Europe/Berlin").toISOString()).toBe("2026-03-28T23:00:00.000Z");
  });
});

describe("course dates as items (spec 3 'Course access', 4.6, 4.7)", () => {
  const course = { id: "c1", name: "Python", code: "PY", mandatory: true };
  const base: CourseDates = {
    aggregateId: "a1",
    course,
    dueDate: "2026-11-30T00:00:00.000Z",
    availabilityDate: "2026-11-01T09:00:00.000Z",
    availabilityEndDate: "2027-01-31T17:00:00.000Z",
    gradeRevealPolicy: "afterDate",
    gradeRevealDate: "2026-12-15T12:00:00.000Z",
    workflowState: ObjectiveWorkflowState.inProgress,
    hasRecord: false,
  };

  it("due date (all-day at UTC midnight), availability start and end; no reveal before anything is handed in", () => {
    const items = courseCalendarItems(base);
    expect(items.map((i) => [i.kind, i.allDay, i.done])).toEqual([
      ["courseDue", true, false],
      ["courseAvailableFrom", false, false],
      ["courseAvailableUntil", false, false],
    ]);
    expect(items[0].id).toBe("courseDue:a1");
    expect(calendarItemHref(items[0])).toBe("/learn/courses/c1");
  });

  it.each([
    ["afterDate", ObjectiveWorkflowState.submitted, true],
    ["afterDate", ObjectiveWorkflowState.finished, true],
    ["never", ObjectiveWorkflowState.finished, false],
    ["afterFinish", ObjectiveWorkflowState.finished, false],
    ["none", ObjectiveWorkflowState.finished, false],
  ] as const)("reveal policy %s with state %i: reveal item %s, carrying no result", (policy, state, shown) => {
    const items = courseCalendarItems({ ...base, gradeRevealPolicy: policy, workflowState: state });
    const reveal = items.find((i) => i.kind === "gradeReveal");
    expect(Boolean(reveal)).toBe(shown);
    if (reveal) expect(Object.keys(reveal).sort()).not.toContain("score");
    // Handed in: the due date is done, never overdue.
    expect(items.find((i) => i.kind === "courseDue")?.done).toBe(true);
  });

  it("an imported result without a workflow counts as handed in (spec 4.11 completed)", () => {
    const items = courseCalendarItems({ ...base, workflowState: null, hasRecord: true });
    expect(items.find((i) => i.kind === "courseDue")?.done).toBe(true);
  });
});

function node(over: {
  constraint?: Record<string, string | null>;
  kind?: ActivityKind;
  state?: ObjectiveState;
  duration?: number | null;
  aw?: ActivityWorkflowState | null;
}): TreeNode {
  return {
    activityPathId: "p1",
    parentPathId: "root",
    axis: "00.01",
    order: 1,
    optional: false,
    scoreWeight: 1,
    constraint: over.constraint ?? {},
    available: true,
    contentAvailable: true,
    childActivity: {
      id: "act1",
      name: "Quiz",
      code: "Q",
      kind: over.kind ?? ActivityKind.text,
      contentType: ActivityContentType.Text,
      type: ActivityType.Assessment,
      state: over.state ?? ObjectiveState.ready,
      proctored: false,
      duration: over.duration ?? null,
      maxScore: 10,
      supportReview: true,
      supportCollaborativeMode: false,
      supportPersonalMode: true,
      activityWorkflowAggregate: {
        lastActivityWorkflow: over.aw
          ? {
              id: "aw",
              state: over.aw,
              submitted: false,
              finished: null,
              started: "2026-11-01T00:00:00Z",
              resume: null,
              groupActivityWorkflowId: null,
            }
          : null,
        bestActivityRecord: null,
      },
    },
  };
}

describe("activity dates as items (spec 3 'Activity constraint', 4.12)", () => {
  const course = { id: "c1", name: "Python", code: "PY", mandatory: false };
  const NOW = new Date("2026-11-23T12:00:00Z");
  const constraint = {
    startFrom: "2026-11-25T08:00:00.000Z",
    due: "2026-11-28T17:00:00.000Z",
    accessibleUntil: "2026-12-05T00:00:00.000Z",
    gracePeriodUntil: "2026-12-01T00:00:00.000Z",
    startUntil: "2026-11-27T00:00:00.000Z",
    resultsDisclosureFrom: "2026-12-10T00:00:00.000Z",
    revealResultsFrom: "garbage",
    reviewPolicy: "afterRevealingResults",
  };

  it("one item per own date, locked with the first 4.12 reason, linking to the activity", () => {
    const items = activityCalendarItems({
      course,
      node: node({ constraint }),
      ownConstraint: constraint,
      event: null,
      now: NOW,
    });
    expect(items.map((i) => i.kind)).toEqual([
      "activityStartFrom",
      "activityStartUntil",
      "activityDue",
      "activityAccessibleUntil",
      "activityGracePeriodUntil",
      "activityResultsDisclosure",
    ]);
    expect(items.every((i) => i.lock?.key === "activityLock.beforeStartFrom")).toBe(true);
    expect(items[0].lock?.date).toBe(constraint.startFrom);
    expect(calendarItemHref(items[2])).toBe("/learn/courses/c1/view/content?activityPathId=p1");
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  });

  it("the two results dates on the same instant are one item", () => {
    const both = { resultsDisclosureFrom: "2026-12-10T00:00:00.000Z", revealResultsFrom: "2026-12-10T00:00:00.000Z" };
    const items = activityCalendarItems({
      course,
      node: node({ constraint: both }),
      ownConstraint: both,
      event: null,
      now: NOW,
    });
    expect(items.map((i) => i.kind)).toEqual(["activityResultsDisclosure"]);
  });

  it("inherited module dates are not repeated on each child; they still lock it", () => {
    const items = activityCalendarItems({
      course,
      node: node({ constraint: { startFrom: "2026-11-25T08:00:00.000Z" } }),
      ownConstraint: {},
      event: null,
      now: NOW,
    });
    expect(items).toEqual([]);
  });

  it.each([
    [null, false],
    [ActivityWorkflowState.inProgress, false],
    [ActivityWorkflowState.inGrading, true],
    [ActivityWorkflowState.finished, true],
  ])("a due date with activity workflow %s is done=%s", (aw, done) => {
    const due = { due: "2026-11-20T17:00:00.000Z" };
    const [item] = activityCalendarItems({
      course,
      node: node({ constraint: due, aw }),
      ownConstraint: due,
      event: null,
      now: NOW,
    });
    expect(item.done).toBe(done);
    expect(isOverdue(item, NOW)).toBe(!done);
  });

  it("draft and archived activities have no items", () => {
    for (const state of [ObjectiveState.draft, ObjectiveState.archived])
      expect(
        activityCalendarItems({
          course,
          node: node({ constraint, state }),
          ownConstraint: constraint,
          event: null,
          now: NOW,
        }),
      ).toEqual([]);
  });

  it("an event: start–end, place and only a secure online link", () => {
    const event = eventDetails({
      startsAt: "2026-11-24T09:00:00.000Z",
      endsAt: "2026-11-24T11:00:00.000Z",
      location: "Room 4",
      url: "javascript:alert(1)",
    });
    const [item] = activityCalendarItems({
      course,
      node: node({ kind: ActivityKind.event }),
      ownConstraint: {},
      event,
      now: NOW,
    });
    expect(item).toMatchObject({
      kind: "event",
      start: "2026-11-24T09:00:00.000Z",
      end: "2026-11-24T11:00:00.000Z",
      allDay: false,
      location: "Room 4",
      url: null,
      lock: null,
    });
    expect(eventDetails({ startsAt: "x" })).toBeNull();
    expect(eventDetails({ startsAt: "2026-11-24T09:00:00Z", url: "https://meet.example/a" })?.url).toBe(
      "https://meet.example/a",
    );
  });
});

describe("an event's span (issue 32 item 5: never an end equal to its start)", () => {
  const course = { id: "c1", name: "Python", code: "PY", mandatory: false };
  const NOW = new Date("2026-11-23T12:00:00Z");
  const eventItem = (startsAt: string, duration: number | null) =>
    activityCalendarItems({
      course,
      node: node({ kind: ActivityKind.event, duration }),
      ownConstraint: {},
      event: eventDetails({ startsAt }),
      now: NOW,
    })[0];
  it.each([
    [
      "without an end, its duration makes the span",
      "2026-11-24T09:00:00.000Z",
      5400,
      "2026-11-24T10:30:00.000Z",
      false,
    ],
    ["without an end or a duration, an instant", "2026-11-24T09:00:00.000Z", null, null, false],
    ["at midnight UTC, still a time, not a day", "2026-11-24T00:00:00.000Z", null, null, false],
    ["written as a bare date, a day", "2026-11-24", null, null, true],
  ])("%s", (_, startsAt, duration, end, allDay) => {
    expect(eventItem(startsAt, duration)).toMatchObject({ end, allDay });
  });
});

describe("dashboard windows (issue 13)", () => {
  const NOW = new Date("2026-11-23T12:00:00Z");
  const course = { id: "c", name: "C", code: "C", mandatory: false };
  const make = (kind: CalendarItem["kind"], start: string, over: Partial<CalendarItem> = {}): CalendarItem => ({
    id: `${kind}:${start}`,
    kind,
    start,
    end: null,
    allDay: false,
    course,
    activity: null,
    location: null,
    url: null,
    lock: null,
    done: false,
    question: null,
    ...over,
  });

  it("calendar order: by start, all-day first on the same instant, then course, activity and id", () => {
    const b = { ...course, name: "B" };
    const act = (name: string) => ({ id: name, pathId: name, name, kind: ActivityKind.text });
    const ordered = [
      make("courseDue", "2026-11-20T00:00:00.000Z", { allDay: true, course: b }),
      make("activityDue", "2026-11-20T00:00:00.000Z", { course: { ...course, name: "A" } }),
      make("activityDue", "2026-11-20T00:00:00.000Z", { course: b, activity: act("Quiz") }),
      make("activityDue", "2026-11-20T00:00:00.000Z", { course: b, activity: act("Test") }),
      make("event", "2026-11-20T00:00:00.000Z", { id: "z1", course: b, activity: act("Test") }),
      make("event", "2026-11-20T00:00:00.000Z", { id: "z2", course: b, activity: act("Test") }),
      make("event", "2026-11-20T09:30:00+01:00"), // 08:30 UTC: the offset counts, not the text
      make("event", "2026-11-20T09:00:00.000Z"),
    ];
    // Every rotation of the list comes back in the same order, sorted in place.
    for (let n = 0; n < ordered.length; n++) {
      const shuffled = [...ordered.slice(n), ...ordered.slice(0, n)].reverse();
      expect(sortItems(shuffled)).toBe(shuffled);
      expect(shuffled).toEqual(ordered);
    }
  });

  it("due soon: overdue first, then the next 14 days; handed-in and later ones left out", () => {
    const items = [
      make("activityDue", "2026-11-30T00:00:00.000Z"),
      make("courseDue", "2026-10-01T00:00:00.000Z"),
      make("courseDue", "2026-12-08T00:00:00.000Z"), // 15 days away
      make("activityDue", "2026-11-20T00:00:00.000Z", { done: true }),
      make("activityStartFrom", "2026-11-24T00:00:00.000Z"),
    ];
    expect(dueSoonAndOverdue(items, NOW).map((i) => i.start)).toEqual([
      "2026-10-01T00:00:00.000Z",
      "2026-11-30T00:00:00.000Z",
    ]);
  });

  it("upcoming events: under way or starting within 7 days", () => {
    const items = [
      make("event", "2026-11-23T10:00:00.000Z", { end: "2026-11-23T13:00:00.000Z" }), // under way
      make("event", "2026-11-22T10:00:00.000Z", { end: "2026-11-22T11:00:00.000Z" }), // over
      make("event", "2026-11-30T11:00:00.000Z", { end: "2026-11-30T12:00:00.000Z" }), // within 7 days
      make("event", "2026-12-01T12:00:00.000Z", { end: "2026-12-01T13:00:00.000Z" }), // too far
    ];
    expect(upcomingEvents(items, NOW).map((i) => i.start)).toEqual([
      "2026-11-23T10:00:00.000Z",
      "2026-11-30T11:00:00.000Z",
    ]);
  });

  it("isDateOnly: UTC midnight or a bare date", () => {
    expect(isDateOnly("2026-11-30")).toBe(true);
    expect(isDateOnly("2026-11-30T00:00:00.000Z")).toBe(true);
    expect(isDateOnly("2026-11-30T00:00:00.000+01:00")).toBe(false);
    expect(isDateOnly("2026-11-30T09:00:00.000Z")).toBe(false);
  });

  it("CalendarDate is re-exported for the app's loaders", () => {
    expect(new CalendarDate(2026, 11, 23).toString()).toBe("2026-11-23");
  });
});

describe("reinforcement questions due (issue 13 item 6; spec 2.8, 4.10)", () => {
  const base = {
    workflowId: "wf-1",
    course: { id: "c", name: "Python", code: "PY", mandatory: false },
    module: { id: "a", pathId: "p", name: "Variables", kind: ActivityKind.text },
    question: "What is 3 / 2?",
    options: [
      { id: "int", text: "int" },
      { id: "float", text: "float" },
    ],
  };
  it.each([
    [
      "open, at an instant: not all-day, not done, leads to the module",
      { dueAt: "2026-11-24T09:15:00.000Z", answer: null },
      { allDay: false, done: false, href: "/learn/courses/c/view/content?activityPathId=p" },
    ],
    [
      "due exactly at UTC midnight: still an instant, never all-day",
      { dueAt: "2026-11-24T00:00:00.000Z", answer: null },
      { allDay: false, done: false, href: "/learn/courses/c/view/content?activityPathId=p" },
    ],
    [
      "answered: done, leads to the review on the answer page",
      { dueAt: "2026-11-24T09:15:00.000Z", answer: "float" },
      { allDay: false, done: true, href: "/learn/email-response-callback?answer=float&workflowId=wf-1" },
    ],
    [
      "a module the course no longer holds: the course",
      { dueAt: "2026-11-24T09:15:00.000Z", answer: null, module: { ...base.module, pathId: null } },
      { allDay: false, done: false, href: "/learn/courses/c" },
    ],
  ] as const)("%s", (_label, over, expected) => {
    const item = reinforcementCalendarItem({ ...base, ...over });
    expect(item).toMatchObject({
      id: "reinforcementDue:wf-1",
      kind: "reinforcementDue",
      start: over.dueAt,
      end: null,
      allDay: expected.allDay,
      done: expected.done,
      question: { workflowId: "wf-1", text: "What is 3 / 2?", answer: over.answer },
    });
    expect(calendarItemHref(item)).toBe(expected.href);
  });

  it("is overdue while unanswered after its instant, never once answered", () => {
    const now = new Date("2026-11-25T00:00:00.000Z");
    const open = reinforcementCalendarItem({ ...base, dueAt: "2026-11-24T09:15:00.000Z", answer: null });
    const answered = reinforcementCalendarItem({ ...base, dueAt: "2026-11-24T09:15:00.000Z", answer: "int" });
    expect(isOverdue(open, now)).toBe(true);
    expect(isOverdue(answered, now)).toBe(false);
  });
});
