import { test, expect } from "./fixtures";
import { request as httpRequest } from "node:http";

/**
 * The front's body limit for the chat's post (issue 16 item 3): a post may carry every allowed file at
 * its largest; past that, the clear 413 page, before any other work. HTTP only (the "http" project).
 */
test("the chat's post takes bodies of three files at their largest; past that, the clear 413 page", async ({
  baseURL,
}) => {
  // The front answers a body declared too large at once and closes. Writing that body anyway makes the
  // server's close a TCP reset that can drop its answer (a flaky hang under load), so a body the
  // front refuses by its declared length is not sent: the headers alone get the answer.
  const post = (path: string, bytes: number, send = true) =>
    new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
      const req = httpRequest(`${baseURL}${path}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/octet-stream",
          "Content-Length": String(bytes),
          Accept: "text/html",
          "Accept-Language": "en-US",
        },
      });
      req.on("response", (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), text }));
      });
      req.on("error", (err) => (req.writableEnded || !send ? undefined : reject(err)));
      if (send) req.end(Buffer.alloc(bytes));
      else req.flushHeaders();
    });
  const chat = `/learn/courses/${crypto.randomUUID()}/view/notifications`;
  // 2 MB is past the front's limit for other forms (1 MB), not for the chat's.
  expect((await post("/learn/feedback", 2 * 1024 * 1024, false)).status).toBe(413);
  expect((await post(chat, 2 * 1024 * 1024)).status).not.toBe(413);
  const tooBig = await post(chat, 3 * 10 * 1024 * 1024 + 256 * 1024 + 1, false);
  expect(tooBig.status).toBe(413);
  expect(tooBig.type).toContain("text/html");
  expect(tooBig.text).toMatch(/<h1>[^<]+<\/h1><p>[^<]+<\/p>/);
});
