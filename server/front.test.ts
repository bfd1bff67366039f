import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseServerConfig } from "./config";
import { createFront } from "./front";
import { securityHeaders } from "./http/front";

/**
 * The content origin answers only under CONTENT_URL's host (decision 050): a hostile package opened
 * under the app's host name (or any other name reaching the content port) would run there and could
 * set a cookie that shadows the learner's session.
 */
describe("the content origin's host", () => {
  const config = parseServerConfig({
    APP_URL: "http://localhost:3000",
    CONTENT_URL: "http://127.0.0.1:3001",
    PORT: "3000",
  });
  const front = createFront(config, {
    web: () => new Response("app"),
    content: () => Promise.resolve(new Response("package file")),
    idpHandler: () => null,
    vite: null,
    withSecurityHeaders: securityHeaders({ https: false }),
    shed: () => false,
    readBody: (_req, _res, next) => next(),
  });
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer(front.serveContent);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  /** A request to the content port with the given Host header. */
  const get = async (host: string) => {
    const { request } = await import("node:http");
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.1", port, path: "/scorm/grant/index.html", headers: { Host: host } },
        (res) => {
          let body = "";
          res.on("data", (d) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on("error", reject);
      req.end();
    });
  };

  it.each([
    ["127.0.0.1:3001", 200],
    ["localhost:3001", 421], // the app's host name on the content port
    ["localhost:3000", 421],
    ["evil.example", 421],
    ["", 421],
  ])("Host %j → %d", async (host, status) => {
    const answer = await get(host);
    expect(answer.status).toBe(status);
    if (status === 421) expect(answer.body).toBe("");
  });
});
