import { describe, expect, it } from "vitest";
import { retryAfterMeta, retryAfterOf } from "./retry-after";

describe("the seconds a refusal's body asks a client to wait (retryAfterOf)", () => {
  it.each([
    [
      "the refusal page's meta element",
      `<!DOCTYPE html><html lang="de">${retryAfterMeta(3)}<h1>Überlastet</h1></html>`,
      3,
    ],
    ["the API's JSON error", `{"status":503,"errors":{"":[{"code":"overloaded","params":{"seconds":2}}]}}`, 2],
    ["zero is at least a second", retryAfterMeta(0), 1],
    ["a huge value is five minutes at most", retryAfterMeta(86_400), 300],
    ["a page without it", "<html><h1>Service Unavailable</h1></html>", null],
    ["not a number", `<meta name="retry-after" content="soon">`, null],
    ["no body", undefined, null],
    ["an object, not text", { seconds: 2 }, null],
  ])("%s", (_, body, seconds) => {
    expect(retryAfterOf(body)).toBe(seconds);
  });
});
