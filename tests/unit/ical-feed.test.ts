import { describe, expect, it } from "vitest";
import ICAL from "ical.js";
import nodeIcal, { type VEvent } from "node-ical";
import { rfc5545Problems } from "../fixtures/rfc5545";
import { publishedHash, toICalendar, type FeedItem } from "../../api/mappers/ical";
import type { CalendarItem } from "../../domain/contract/calendar";
import { ActivityKind } from "../../domain/vocabulary";

/**
 * The personal feed imports cleanly into standard calendar programs. The document is written
 * by ical-generator and read here by Mozilla's ical.js (Thunderbird's parser) and by node-ical (another
 * parser, of its own lineage), both different from the writer; issue 32 item 5: the RFC 5545 rules these
 * tolerant parsers let through are checked by `rfc5545Problems` below.
 */

const course = { id: "c1", name: "Python; data, and more", code: "PY-101", mandatory: true };
const base: CalendarItem = {
  id: "x",
  kind: "activityDue",
  start: "2026-11-28T17:00:00.000Z",
  end: null,
  allDay: false,
  course,
  activity: { id: "a1", pathId: "p1", name: "Quiz 1", kind: ActivityKind.lti },
  location: null,
  url: null,
  lock: null,
  done: false,
  question: null,
};
const changed = new Date("2026-11-20T08:00:00.000Z");
const items: FeedItem[] = [
  { item: { ...base, id: "activityDue:p1:due" }, sequence: 2, changed },
  {
    item: {
      ...base,
      id: "courseDue:a1",
      kind: "courseDue",
      start: "2026-11-30T00:00:00.000Z",
      allDay: true,
      activity: null,
    },
    sequence: 0,
    changed,
  },
  {
    item: {
      ...base,
      id: "event:p2",
      kind: "event",
      start: "2026-11-23T21:30:00.000Z",
      end: "2026-11-23T23:30:00.000Z",
      activity: { id: "a2", pathId: "p2", name: "Live session", kind: ActivityKind.event },
      url: "https://meet.example/live",
      location: "Room 4, building B",
    },
    sequence: 1,
    changed,
  },
  {
    item: { ...base, id: "activityDue:p3:due", done: true, lock: { key: "activityLock.serverSide", date: null } },
    sequence: 0,
    changed,
  },
];

const doc = toICalendar(items, { locale: "en-US", origin: "https://learn.example", host: "learn.example" });

function parse(text: string) {
  return new ICAL.Component(ICAL.parse(text));
}

describe("the personal calendar feed (RFC 5545)", () => {
  it("is one VCALENDAR with a VEVENT per item, stable UIDs, SEQUENCE and DTSTAMP", () => {
    const calendar = parse(doc.body);
    expect(calendar.name).toBe("vcalendar");
    expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
    expect(String(calendar.getFirstPropertyValue("prodid"))).toContain("learner-app");
    const events = calendar.getAllSubcomponents("vevent");
    expect(events.map((e) => e.getFirstPropertyValue("uid"))).toEqual([
      "activityDue:p1:due@learn.example",
      "courseDue:a1@learn.example",
      "event:p2@learn.example",
      "activityDue:p3:due@learn.example",
    ]);
    expect(events.map((e) => e.getFirstPropertyValue("sequence"))).toEqual([2, 0, 1, 0]);
    for (const e of events) expect((e.getFirstPropertyValue("dtstamp") as ICAL.Time).toJSDate()).toEqual(changed);
  });

  it("writes times in UTC, an all-day date as a DATE, and events with their end, place and link", () => {
    const [quiz, due, live] = parse(doc.body)
      .getAllSubcomponents("vevent")
      .map((e) => new ICAL.Event(e));
    expect(quiz.startDate.zone?.tzid).toBe("UTC");
    expect(quiz.startDate.toJSDate().toISOString()).toBe("2026-11-28T17:00:00.000Z");
    expect(due.startDate.isDate).toBe(true);
    expect(due.startDate.toString()).toBe("2026-11-30");
    expect(live.endDate.toJSDate().toISOString()).toBe("2026-11-23T23:30:00.000Z");
    expect(live.location).toBe("Room 4, building B");
    expect(live.summary).toBe("Event: Live session (Python; data, and more)");
    expect(live.description).toContain("https://meet.example/live");
    expect(String(live.component.getFirstPropertyValue("url"))).toBe(
      "https://learn.example/learn/courses/c1/view/content?activityPathId=p2",
    );
  });

  it("reminds one day before a due date not handed in, and only then", () => {
    const events = parse(doc.body).getAllSubcomponents("vevent");
    const alarm = events[0].getFirstSubcomponent("valarm")!;
    expect(alarm.getFirstPropertyValue("action")).toBe("DISPLAY");
    expect(String(alarm.getFirstPropertyValue("trigger"))).toBe("-P1D");
    expect(events[2].getFirstSubcomponent("valarm")).toBeNull(); // an event
    expect(events[3].getFirstSubcomponent("valarm")).toBeNull(); // handed in
    expect(String(events[3].getFirstPropertyValue("description"))).toContain("Handed in");
  });

  it("keeps RFC 5545's rules that tolerant parsers let through", () => {
    expect(rfc5545Problems(doc.body)).toEqual([]);
    // The checker itself: what ical-generator wrote before issue 32 item 5 is refused.
    const before = doc.body
      .trimEnd()
      .replace("DTSTART:20261128T170000Z\r\n", "DTSTART:20261128T170000Z\r\nDTEND:20261128T170000Z\r\n")
      .replace(/(END:VALARM\r\n)(END:VEVENT)/, "$1LAST-MODIFIED:20261120T080000Z\r\n$2");
    expect(rfc5545Problems(before)).toEqual([
      "the last line has no CRLF",
      "activityDue:p1:due@learn.example: LAST-MODIFIED after a VALARM",
      "activityDue:p1:due@learn.example: DTEND not after DTSTART",
    ]);
  });

  it("gives an instant no end, an all-day item the next day as its end, an event its span", () => {
    const [quiz, due, live] = parse(doc.body).getAllSubcomponents("vevent");
    expect(quiz.hasProperty("dtend")).toBe(false);
    expect(String(due.getFirstPropertyValue("dtend"))).toBe("2026-12-01");
    expect(new ICAL.Event(live).duration.toSeconds()).toBe(2 * 3600);
  });

  it("reads the same in a second, independent parser (node-ical)", () => {
    const parsed = Object.values(nodeIcal.sync.parseICS(doc.body)).filter((c): c is VEvent => c?.type === "VEVENT");
    expect(parsed.map((e) => e.uid)).toEqual([
      "activityDue:p1:due@learn.example",
      "courseDue:a1@learn.example",
      "event:p2@learn.example",
      "activityDue:p3:due@learn.example",
    ]);
    const [quiz, due, live] = parsed as [VEvent, VEvent, VEvent];
    expect(quiz.start.toISOString()).toBe("2026-11-28T17:00:00.000Z");
    // node-ical gives an event without DTEND its start as end (RFC 5545 3.6.1: it takes no time).
    expect(quiz.end?.getTime()).toBe(quiz.start.getTime());
    expect(due.datetype).toBe("date");
    expect(live.end?.toISOString()).toBe("2026-11-23T23:30:00.000Z");
    expect(live.location).toBe("Room 4, building B");
    const alarms = (quiz as unknown as { alarms?: { action: string; trigger: string }[] }).alarms ?? [];
    expect(alarms.map((a) => [a.action, a.trigger])).toEqual([["DISPLAY", "-P1D"]]);
  });

  it("uses CRLF lines folded at 75 octets, and an ETag that changes only with the content", () => {
    expect(doc.body.split("\r\n").every((line) => new TextEncoder().encode(line).length <= 75)).toBe(true);
    expect(toICalendar(items, { locale: "en-US", origin: "https://learn.example", host: "learn.example" }).etag).toBe(
      doc.etag,
    );
    const moved = [{ ...items[0], item: { ...items[0].item, start: "2026-11-29T17:00:00.000Z" } }, ...items.slice(1)];
    expect(
      toICalendar(moved, { locale: "en-US", origin: "https://learn.example", host: "learn.example" }).etag,
    ).not.toBe(doc.etag);
  });

  it("is written in the learner's language", () => {
    const german = toICalendar(items.slice(0, 1), { locale: "de", origin: "https://x", host: "x" });
    expect(new ICAL.Event(parse(german.body).getFirstSubcomponent("vevent")!).summary).toBe(
      "Fällig: Quiz 1 (Python; data, and more)",
    );
  });

  it("a changed date, place or state changes the published hash; the same item keeps it", () => {
    expect(publishedHash(base)).toBe(publishedHash({ ...base }));
    expect(publishedHash({ ...base, start: "2026-11-29T17:00:00.000Z" })).not.toBe(publishedHash(base));
    expect(publishedHash({ ...base, done: true })).not.toBe(publishedHash(base));
  });
});
