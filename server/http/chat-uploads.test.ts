import { describe, expect, it } from "vitest";
import { chatAttachmentRules, isChatPostPath } from "./chat-uploads";

describe("chat attachment configuration (issue 16 item 3)", () => {
  it("defaults: 10 MB, 3 files, every kind", () => {
    expect(chatAttachmentRules({})).toMatchObject({ maxBytes: 10 * 1024 * 1024, maxCount: 3 });
    expect(chatAttachmentRules({}).kinds).toHaveLength(10);
  });

  it("reads the environment", () => {
    expect(
      chatAttachmentRules({
        CHAT_ATTACHMENT_MAX_BYTES: "2048",
        CHAT_ATTACHMENT_MAX_COUNT: "1",
        CHAT_ATTACHMENT_TYPES: "pdf,jpg",
      }),
    ).toEqual({ maxBytes: 2048, maxCount: 1, kinds: ["pdf", "jpeg"] });
  });

  it.each([
    [{ CHAT_ATTACHMENT_MAX_BYTES: "10MB" }, /CHAT_ATTACHMENT_MAX_BYTES must be a whole number/],
    [{ CHAT_ATTACHMENT_MAX_COUNT: "0" }, /CHAT_ATTACHMENT_MAX_COUNT must be a whole number/],
    [{ CHAT_ATTACHMENT_TYPES: "pdf,exe" }, /CHAT_ATTACHMENT_TYPES: unknown attachment type "exe"/],
  ])("%j stops the server: %s", (env, error) => {
    expect(() => chatAttachmentRules(env)).toThrow(error);
  });

  it.each([
    ["/learn/courses/abc/view/notifications", true],
    ["/learn/courses/abc/view/notifications.data", true],
    ["/api/lms/v1/create-chat-messages", true],
    ["/learn/courses/abc/hand-in/def", true],
    ["/learn/courses/abc/hand-in/def/upload", true],
    ["/learn/courses/abc/hand-in/def/other", false],
    ["/learn/courses/abc/assessment/wf/aw", true],
    ["/learn/courses/abc/assessment/wf/aw.data", true],
    ["/learn/courses/abc/assessment/wf/aw/more", false],
    ["/api/assessment/v1/users/me/objective-workflows/wf/activity-workflows/aw/assessment/answers", true],
    ["/api/assessment/v1/users/me/objective-workflows/wf/activity-workflows/aw/assessment/submit", false],
    ["/learn/courses/abc/view/content", false],
    ["/learn/feedback", false],
    ["/api/lms/v1/create-discussion-posts", false],
  ])("%s takes files: %s", (path, expected) => {
    expect(isChatPostPath(path)).toBe(expected);
  });
});
