import { describe, expect, it } from "vitest";
import { inRequest, noteRequestUser } from "./logger.server";
import { pageErrorLine, routeTemplate } from "./page-errors.server";

describe("routeTemplate: a route's values become their names", () => {
  it.each([
    [
      "/learn/courses/c-123/activities/a-9",
      { id: "c-123", activityId: "a-9" },
      "/learn/courses/:id/activities/:activityId",
    ],
    ["/learn/files/x/y.pdf", { "*": "x/y.pdf" }, "/learn/files/x/y.pdf"],
    ["/learn/profile", {}, "/learn/profile"],
    ["/learn/u/%C3%A9t%C3%A9", { name: "été" }, "/learn/u/:name"],
  ])("%s", (path, params, expected) => expect(routeTemplate(path, params)).toBe(expected));
});

describe("a page error's line", () => {
  it("has the request id, the route, the user id and the error, never an e-mail or a token", () => {
    const request = new Request("http://localhost/learn/courses/c-1?email=ada@example.com", { method: "POST" });
    const error = new Error("lms: 500 for ada@example.com with Bearer abcdefghijklmnop");
    const line = inRequest("req-42", () => {
      noteRequestUser("user-7");
      return pageErrorLine(error, request, { id: "c-1" }, "request");
    });
    expect(line).toMatchObject({ reqId: "req-42", method: "POST", route: "/learn/courses/:id", userId: "user-7" });
    expect(line.err.message).toBe("lms: 500 for [email] with Bearer [redacted]");
    expect(line.err.stack).toContain("page-errors.server.test.ts");
    expect(JSON.stringify(line)).not.toMatch(/ada@|abcdefghijklmnop/);
  });
  it("outside a signed-in request: no user id", () => {
    const line = inRequest("r", () => pageErrorLine(new Error("x"), new Request("http://l/learn"), {}, "render"));
    expect(line).not.toHaveProperty("userId");
  });
});
