import { describe, expect, it } from "vitest";
import { afterSave, launchEntry, navOutcome, navValidity, sessionEnding, statusAtFinish } from "./scorm-attempt";

// SCORM 2004 RTE 4.2.9 (cmi.entry), 4.2.10 (cmi.exit), SN navigation requests.
describe("how a session ends", () => {
  it.each([
    ["suspend", "", { state: "suspended", exitAll: false, suspendAll: false }],
    ["normal", "", { state: "ended", exitAll: false, suspendAll: false }],
    ["", "", { state: "ended", exitAll: false, suspendAll: false }],
    // time-out and logout end the whole package's attempt
    ["time-out", "", { state: "ended", exitAll: true, suspendAll: false }],
    ["logout", "", { state: "ended", exitAll: true, suspendAll: false }],
    // suspendAll suspends, whatever cmi.exit says (ADL DMB test, activity 1, visits 10 and 11)
    ["normal", "suspendAll", { state: "suspended", exitAll: false, suspendAll: true }],
    ["suspend", "exitAll", { state: "ended", exitAll: true, suspendAll: false }],
    ["suspend", "{target=a}choice", { state: "suspended", exitAll: false, suspendAll: false }],
  ] as const)("2004 exit %j with request %j", (exit, nav, ending) =>
    expect(sessionEnding("2004", exit, nav)).toEqual(ending),
  );

  it("1.2: suspend or not, never the whole package", () => {
    expect(sessionEnding("1.2", "suspend", "")).toEqual({ state: "suspended", exitAll: false, suspendAll: false });
    expect(sessionEnding("1.2", "time-out", "")).toEqual({ state: "ended", exitAll: false, suspendAll: false });
  });
});

describe("the next launch's entry", () => {
  it.each([
    ["2004", null, { entry: "ab-initio", fresh: true }],
    ["2004", { state: "suspended", exit: "suspend" }, { entry: "resume", fresh: false }],
    ["2004", { state: "ended", exit: "normal" }, { entry: "ab-initio", fresh: true }],
    ["2004", { state: "ended", exit: "" }, { entry: "ab-initio", fresh: true }],
    // never terminated: the attempt goes on
    ["2004", { state: "open", exit: "suspend" }, { entry: "resume", fresh: false }],
    ["2004", { state: "open", exit: "" }, { entry: "", fresh: false }],
    ["1.2", null, { entry: "ab-initio", fresh: true }],
    ["1.2", { state: "suspended", exit: "suspend" }, { entry: "resume", fresh: false }],
    // 1.2 knows no attempts: the data comes back
    ["1.2", { state: "ended", exit: "" }, { entry: "", fresh: false }],
  ] as const)("%s after %j", (version, previous, entry) => expect(launchEntry(version, previous)).toEqual(entry));
});

describe("navigation", () => {
  const ids = ["a", "b", "c"];
  const both = { choice: true, flow: true };
  it("is valid as the controls allow", () => {
    expect(navValidity(ids, 0, both)).toMatchObject({ continue: "true", previous: "false" });
    expect(navValidity(ids, 2, { choice: false, flow: false })).toEqual({
      continue: "false",
      previous: "false",
      choice: { "{target=a}": "false", "{target=b}": "false", "{target=c}": "false" },
      jump: { "{target=a}": "true", "{target=b}": "true", "{target=c}": "true" },
    });
  });

  it.each([
    ["continue", 0, both, { kind: "launch", index: 1 }],
    ["continue", 2, both, { kind: "stay" }],
    ["continue", 0, { choice: true, flow: false }, { kind: "stay" }],
    ["previous", 1, both, { kind: "launch", index: 0 }],
    ["{target=c}choice", 0, both, { kind: "launch", index: 2 }],
    // a SCO that chooses itself is relaunched (issue 30 item 6)
    ["{target=a}choice", 0, both, { kind: "launch", index: 0 }],
    ["{target=c}choice", 0, { choice: false, flow: true }, { kind: "stay" }],
    ["{target=c}jump", 0, { choice: false, flow: false }, { kind: "launch", index: 2 }],
    ["{target=zz}choice", 0, both, { kind: "stay" }],
    ["suspendAll", 1, both, { kind: "leave" }],
    ["exitAll", 1, both, { kind: "leave" }],
    ["", 1, both, { kind: "stay" }],
    ["_none_", 1, both, { kind: "stay" }],
  ] as const)("%j from %i", (request, index, control, outcome) =>
    expect(navOutcome(request, index, ids, control)).toEqual(outcome),
  );
});

describe("the next launch on the page after a save", () => {
  const start = { attempt: 1, entry: "ab-initio" as const, cmi: {}, totalCentis: 6000 };
  it("keeps a suspended attempt's data and adds the session's time", () => {
    const { next } = afterSave("2004", start, {
      cmi: { "cmi.location": "p2", "cmi.exit": "suspend", "cmi.session_time": "PT1M" },
      finish: true,
      navRequest: "",
      sessionCentis: 6000,
    });
    expect(next).toEqual({
      attempt: 1,
      entry: "resume",
      cmi: { "cmi.location": "p2", "cmi.exit": "suspend" },
      totalCentis: 12_000,
    });
  });

  it("starts the next attempt empty after a normal exit", () => {
    const { next, ending } = afterSave("2004", start, {
      cmi: { "cmi.exit": "normal" },
      finish: true,
      navRequest: "",
      sessionCentis: 100,
    });
    expect(next).toEqual({ attempt: 2, entry: "ab-initio", cmi: {}, totalCentis: 0 });
    expect(ending?.state).toBe("ended");
  });

  it("a save before Terminate changes the data, not the attempt", () => {
    const { next, ending } = afterSave("2004", start, {
      cmi: { "cmi.location": "p3" },
      finish: false,
      navRequest: "",
      sessionCentis: 0,
    });
    expect(next).toEqual({ attempt: 1, entry: "", cmi: { "cmi.location": "p3" }, totalCentis: 6000 });
    expect(ending).toBeNull();
  });
});

// SCORM 1.2 RTE 3.4.2.1.4: at LMSFinish the LMS judges a SCO that never set cmi.core.lesson_status.
describe("a SCORM 1.2 status at LMSFinish", () => {
  const status = (cmi: Record<string, string>, mastery: number | null, exit = "") =>
    statusAtFinish(cmi, mastery, exit)["cmi.core.lesson_status"];
  it.each([
    ["never set, no mastery score", {}, null, "", "completed"],
    ["'not attempted', no mastery score", { "cmi.core.lesson_status": "not attempted" }, null, "", "completed"],
    ["never set, raw 85 over mastery 80", { "cmi.core.score.raw": "85" }, 80, "", "passed"],
    ["never set, raw 60 under mastery 80", { "cmi.core.score.raw": "60" }, 80, "", "failed"],
    ["never set, mastery score but no raw score", {}, 80, "", "completed"],
    ["set by the SCO: kept", { "cmi.core.lesson_status": "incomplete" }, null, "", "incomplete"],
    ["set by the SCO to failed: kept", { "cmi.core.lesson_status": "failed" }, null, "", "failed"],
    ["a suspended session is not judged", {}, null, "suspend", undefined],
  ])("%s", (_what, cmi, mastery, exit, expected) => {
    expect(status(cmi, mastery, exit)).toBe(expected);
  });
});
