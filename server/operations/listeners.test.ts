import { afterEach, describe, expect, it } from "vitest";
import { createServer, get, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { listenShared, reusePortSupported } from "./listeners";

const opened: Server[] = [];
const clients: Socket[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const server of opened.splice(0)) {
    server.closeAllConnections();
    if (server.listening) await new Promise((r) => server.close(r));
  }
});

const answering = () => {
  const server = createServer((_req, res) => res.end("ok"));
  opened.push(server);
  return server;
};
const portOf = (server: Server) => (server.address() as AddressInfo).port;
const fetchOk = (port: number) =>
  new Promise<string>((resolve, reject) =>
    get({ port, host: "127.0.0.1", agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk));
      res.on("end", () => resolve(`${res.statusCode} ${body}`));
    }).on("error", reject),
  );
const busy = (ms: number) => {
  const until = Date.now() + ms;
  while (Date.now() < until);
};

/**
 * 40 clients connect while the loop is busy; then the most connections the server took in one turn
 * of its loop (libuv accepts one per listening socket per turn: decision 038, addendum 13).
 */
async function mostAcceptedInOneTurn(count: number): Promise<number> {
  const server = answering();
  let accepted = 0;
  server.on("connection", () => accepted++);
  await listenShared(server, { port: 0, host: "127.0.0.1", backlog: 511, count });
  for (let i = 0; i < 40; i++) clients.push(connect({ port: portOf(server), host: "127.0.0.1" }).on("error", () => {}));
  busy(100); // the kernel completes the 40 handshakes meanwhile
  const turn = () => new Promise<number>((resolve) => setImmediate(() => resolve(accepted)));
  let most = 0;
  for (let before = await turn(), turns = 0; accepted < 40 && turns < 200; turns++) {
    const after = await turn();
    most = Math.max(most, after - before);
    before = after;
  }
  expect(accepted).toBe(40);
  return most;
}

describe("listenShared (several listening sockets on one port)", () => {
  it("serves every connection through the one HTTP server, on the port the system chose", async () => {
    const server = answering();
    await listenShared(server, { port: 0, host: "127.0.0.1", backlog: 511, count: 8 });
    const answers = await Promise.all(Array.from({ length: 24 }, () => fetchOk(portOf(server))));
    expect(answers).toEqual(Array(24).fill("200 ok"));
  });

  it("accepts one connection per turn with one socket, and many with sixteen", async () => {
    expect(await mostAcceptedInOneTurn(1)).toBe(1);
    expect(await mostAcceptedInOneTurn(16)).toBeGreaterThanOrEqual(6);
  });

  it.each([
    ["20.20.2", false],
    ["22.11.0", false],
    ["22.12.0", true],
    ["23.0.0", false],
    ["23.1.0", true],
    ["24.21.0", true],
  ])("Node %s shares a port between sockets: %s (else one socket, not EADDRINUSE)", (version, shares) => {
    expect(reusePortSupported(version)).toBe(shares);
  });

  it("refuses a port that is already in use, even by a node listening the same way", async () => {
    const first = answering();
    await listenShared(first, { port: 0, host: "127.0.0.1", backlog: 511, count: 4 });
    const second = answering();
    await expect(
      listenShared(second, { port: portOf(first), host: "127.0.0.1", backlog: 511, count: 4 }),
    ).rejects.toMatchObject({ code: "EADDRINUSE" });
    expect(await fetchOk(portOf(first))).toBe("200 ok");
  });

  it("takes no new connection on any of its sockets once closed", async () => {
    const server = answering();
    await listenShared(server, { port: 0, host: "127.0.0.1", backlog: 511, count: 8 });
    const port = portOf(server);
    await new Promise((r) => server.close(r));
    const refused = await Promise.all(
      Array.from({ length: 16 }, () =>
        fetchOk(port).then(
          () => "answered",
          (e: NodeJS.ErrnoException) => e.code,
        ),
      ),
    );
    expect(refused).toEqual(Array(16).fill("ECONNREFUSED"));
  });
});
