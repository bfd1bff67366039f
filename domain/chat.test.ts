import { describe, expect, it } from "vitest";
import { isUnread, linkify, mayPostIn } from "./chat";

describe("spec 2.5 / issue 16 item 1: who posts where", () => {
  it.each([
    ["announcements", ["Learner"], false],
    ["announcements", ["Instructor", "Learner"], true],
    ["chat", ["Learner"], true],
    ["chat", ["Instructor"], true],
  ] as const)("%s by %j → %s", (channel, roles, expected) => {
    expect(mayPostIn(channel, roles)).toBe(expected);
  });
});

describe("spec 2.5 unread badge: what counts as unread", () => {
  it.each([
    [{ seq: 5, mine: false, deleted: false }, 4, true],
    [{ seq: 4, mine: false, deleted: false }, 4, false],
    [{ seq: 5, mine: true, deleted: false }, 4, false],
    [{ seq: 5, mine: false, deleted: true }, 4, false],
  ])("%j after marker %i → %s", (message, readSeq, expected) => {
    expect(isUnread(message, readSeq)).toBe(expected);
  });
});

describe("issue 16 item 3: plain text, links made clickable", () => {
  it.each([
    ["no links", [{ kind: "text", text: "no links" }]],
    [
      "see https://example.org/a?b=1.",
      [
        { kind: "text", text: "see " },
        { kind: "link", text: "https://example.org/a?b=1", href: "https://example.org/a?b=1" },
        { kind: "text", text: "." },
      ],
    ],
    ["<b>bold</b> javascript:alert(1)", [{ kind: "text", text: "<b>bold</b> javascript:alert(1)" }]],
    [
      "(http://x.org)",
      [
        { kind: "text", text: "(" },
        { kind: "link", text: "http://x.org", href: "http://x.org/" },
        { kind: "text", text: ")" },
      ],
    ],
  ])("%s", (body, pieces) => {
    expect(linkify(body)).toEqual(pieces);
  });
});
