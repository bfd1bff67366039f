import { describe, expect, it } from "vitest";
import { calendarSubscribeLinks } from "./calendar-subscribe";

describe("one-click subscriptions to the calendar feed (issue 26)", () => {
  const feed = "https://learn.example/api/lms/v1/public/calendar-feeds/AbC_123-x.ics";
  const links = calendarSubscribeLinks(feed, "My learning calendar");

  it.each([
    ["webcal", "webcal://learn.example/api/lms/v1/public/calendar-feeds/AbC_123-x.ics"],
    [
      "google",
      "https://calendar.google.com/calendar/render?cid=webcal%3A%2F%2Flearn.example%2Fapi%2Flms%2Fv1%2Fpublic%2Fcalendar-feeds%2FAbC_123-x.ics",
    ],
    [
      "outlook",
      "https://outlook.live.com/calendar/0/addfromweb?url=https%3A%2F%2Flearn.example%2Fapi%2Flms%2Fv1%2Fpublic%2Fcalendar-feeds%2FAbC_123-x.ics&name=My+learning+calendar",
    ],
    [
      "office365",
      "https://outlook.office.com/calendar/0/addfromweb?url=https%3A%2F%2Flearn.example%2Fapi%2Flms%2Fv1%2Fpublic%2Fcalendar-feeds%2FAbC_123-x.ics&name=My+learning+calendar",
    ],
  ] as const)("%s", (kind, expected) => {
    expect(links[kind]).toBe(expected);
  });

  it("keeps a port (a local server) and refuses what is not a web address", () => {
    expect(calendarSubscribeLinks("http://localhost:3000/f.ics", "x").webcal).toBe("webcal://localhost:3000/f.ics");
    expect(() => calendarSubscribeLinks("javascript:alert(1)", "x")).toThrow();
  });
});
