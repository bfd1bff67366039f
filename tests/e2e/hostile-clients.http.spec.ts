import { connect } from "node:net";
import { request as httpRequest } from "node:http";
import { test, expect } from "./fixtures";

/**
 * Decision 050 against the compiled server: slow bodies from one address while another browses, and
 * the content origin under another host name. HTTP only (the "http" project). The slow bodies come
 * from 127.0.0.2, an address of their own, so the budget they use up is not the other tests'.
 */

/** A POST that sends its headers and then a byte every 2 s; resolves with its status (0: closed unanswered). */
function dribble(port: number, path: string): { status: Promise<number>; stop: () => void } {
  const socket = connect({ port, host: "127.0.0.1", localAddress: "127.0.0.2" });
  socket.on("error", () => undefined);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
      `Accept-Language: de\r\nContent-Length: 60000\r\n\r\na`,
  );
  const drip = setInterval(() => socket.writable && socket.write("a"), 2_000);
  const status = new Promise<number>((resolve) => {
    let text = "";
    socket.on("data", (d: Buffer) => {
      text += d.toString("latin1");
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    socket.on("close", () => resolve(0));
  });
  return {
    status,
    stop: () => {
      clearInterval(drip);
      socket.destroy();
    },
  };
}

test.describe("slow bodies do not shut the door", { tag: "@js-only" }, () => {
  test("twelve dribbling POSTs: the pages stay served, the bodies get 408, those past the address's share 503", async ({
    request,
    baseURL,
  }) => {
    const port = Number(new URL(baseURL!).port);
    const paths = ["/learn/collect", "/learn/language", "/learn/courses", "/api/lti/v1/token"];
    const slow = Array.from({ length: 12 }, (_, i) => dribble(port, paths[i % paths.length]!));
    try {
      // While they dribble, other visitors are served (before: 503 for every one of them).
      for (let i = 0; i < 10; i++) {
        const page = await request.get("/learn/open-catalog");
        expect(page.status()).toBe(200);
      }
      const jwks = await request.get("/api/lti/v1/jwks");
      expect(jwks.status()).toBe(200);
      const statuses = await Promise.all(slow.map((s) => s.status));
      // Eight per address are read (and cut off at 408); the others are refused at once, unread.
      expect(statuses.filter((s) => s === 408)).toHaveLength(8);
      expect(statuses.filter((s) => s === 503)).toHaveLength(4);
    } finally {
      for (const s of slow) s.stop();
    }
  });
});

test.describe("the content origin's host", { tag: "@js-only" }, () => {
  test("only CONTENT_URL's host is served: the app's host name on the content port is 421", async ({ baseURL }) => {
    const contentPort = Number(new URL(baseURL!).port) + 1;
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          { host: "127.0.0.1", port: contentPort, path: "/runtime/launcher.html", headers: { Host: host } },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        );
        req.on("error", reject);
        req.end();
      });
    expect(await status(`127.0.0.1:${contentPort}`)).toBe(200);
    expect(await status(`localhost:${contentPort}`)).toBe(421);
    expect(await status("lms.example")).toBe(421);
  });
});
