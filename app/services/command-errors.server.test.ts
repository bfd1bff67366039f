import { describe, expect, it } from "vitest";
import { commandErrorToast } from "./command-errors.server";
import { dateFormatter } from "./format.server";
import { LmsError } from "./lms.server";

const error = (status: number, code?: string, params?: Record<string, string | number>) =>
  new LmsError(status, code ? { "": [{ code, message: "…", ...(params ? { params } : {}) }] } : {});

describe("spec 8: a refused command is a critical toast in the page's words", () => {
  const fmt = dateFormatter("en-US", "UTC");
  it.each([
    [
      "429 (item 11): when to try again (issue 29)",
      error(429, "tooManyRequests", { seconds: 30 }),
      { key: "apiErrors.tooManyRequestsIn", values: { seconds: 30 } },
    ],
    [
      "429 with Retry-After and no body",
      new LmsError(429, {}, "http", 12),
      { key: "apiErrors.tooManyRequestsIn", values: { seconds: 12 } },
    ],
    ["429 without a body or Retry-After", error(429), { key: "apiErrors.tooManyRequests" }],
    [
      "a lock reason with its date (spec 4.12, decision 018)",
      error(403, "beforeStartFrom", { date: "2026-05-06T10:00:00.000Z" }),
      { key: "activityLock.beforeStartFrom", values: { date: "May 6, 2026, 10:00 AM UTC" } },
    ],
    [
      "a lock reason without a date",
      error(403, "completePreviousToPass"),
      { key: "activityLock.completePreviousToPass" },
    ],
    ["a known API code", error(409, "workflowNotInProgress"), { key: "apiErrors.workflowNotInProgress" }],
    ["an unknown code (spec 5: 'Unknown error')", error(403, "somethingNew"), { key: "apiErrors.unknown" }],
    [
      "a server error without a message (spec 8: '500: Internal error…')",
      error(500),
      { key: "messages.internalError" },
    ],
    ["a 503 without a message", error(503), { key: "messages.internalError" }],
    ["no server answer at all (network)", error(0), { key: "messages.unknownError" }],
    ["another refusal without a message", error(409), { key: "messages.unknownError" }],
    ["a command that timed out", new LmsError(0, {}, "timeout"), { key: "messages.timeOver" }],
  ])("%s", (_name, err, expected) => {
    expect(commandErrorToast(err, fmt)).toEqual({ type: "critical", ...expected });
  });
});
