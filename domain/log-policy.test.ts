import { describe, expect, it } from "vitest";
import { redactLine, RepeatedWarnings, repeatedLinesHook, safeError } from "./log-policy";

describe("redactLine: no e-mail address or secret reaches the log", () => {
  it.each([
    ['{"params":["ada@example.com",3]}', '{"params":["[email]",3]}'],
    ["failed query: select … params: ada.lovelace+x@mail.example.org,7", "failed query: select … params: [email],7"],
    ["Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def", "Authorization: Bearer [redacted]"],
    ['{"password":"hunter2 x","n":1}', '{"password":"[redacted]","n":1}'],
    ["?token=abcdef123&x=1", "?token=[redacted]&x=1"],
    ['{"msg":"request","path":"/learn/courses"}', '{"msg":"request","path":"/learn/courses"}'],
  ])("%s", (line, expected) => expect(redactLine(line)).toBe(expected));
});

describe("safeError: type, code, message, stack and causes, nothing else", () => {
  it("drops a failed query's parameters and redacts its message", () => {
    const cause = Object.assign(new Error("duplicate key value violates unique constraint"), { code: "23505" });
    const error = Object.assign(new Error("Failed query: insert … params: bob@example.com", { cause }), {
      params: ["bob@example.com"],
      query: "insert …",
    });
    const safe = safeError(error);
    expect(safe).toMatchObject({
      type: "Error",
      message: "Failed query: insert … params: [email]",
      cause: { code: "23505", message: "duplicate key value violates unique constraint" },
    });
    expect(JSON.stringify(safe)).not.toContain("bob@example.com");
    expect(safe).not.toHaveProperty("params");
  });
  it("a thrown string", () => expect(safeError("boom")).toEqual({ type: "string", message: "boom" }));
});

describe("RepeatedWarnings: a few lines, then one line per interval with a count", () => {
  function setup(perInterval = 2) {
    let t = 0;
    const summaries: [string, number][] = [];
    const repeated = new RepeatedWarnings({
      intervalMs: 1_000,
      perInterval,
      summarize: (message, left) => summaries.push([message, left]),
      now: () => t,
    });
    return { repeated, summaries, advance: (ms: number) => (t += ms) };
  }

  it("writes the first lines of a message, counts the rest, and says how many at the interval's end", () => {
    const { repeated, summaries, advance } = setup();
    const written = Array.from({ length: 10 }, () => repeated.admit("analytics: events not recorded", 40));
    expect(written.filter(Boolean)).toHaveLength(2);
    expect(repeated.admit("another message", 40)).toBe(true);
    advance(1_000);
    expect(repeated.admit("analytics: events not recorded", 40)).toBe(true);
    expect(summaries).toEqual([["analytics: events not recorded", 8]]);
  });

  it("flush reports what is still counted; a message with nothing left out gets no summary", () => {
    const { repeated, summaries } = setup(1);
    repeated.admit("a", 40);
    repeated.admit("a", 40);
    repeated.admit("b", 40);
    repeated.flush();
    expect(summaries).toEqual([["a", 1]]);
  });

  it("the pino hook leaves info lines alone and counts warn and error lines", () => {
    const { repeated } = setup(1);
    const hook = repeatedLinesHook(repeated);
    const lines: unknown[][] = [];
    const method = (...a: unknown[]) => void lines.push(a);
    for (let i = 0; i < 3; i++) {
      hook.call(null, [{ reqId: i }, "request"], method, 30);
      hook.call(null, [{ err: i }, "db: down"], method, 50);
    }
    expect(lines.filter((l) => l[1] === "request")).toHaveLength(3);
    expect(lines.filter((l) => l[1] === "db: down")).toHaveLength(1);
  });
});
