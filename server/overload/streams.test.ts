import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerBuild } from "react-router";
import { routeTable } from "../http/route-table";
import { AdmissionControl, admissionGate, createOverloadResponder } from "./admission";
import { DEFAULT_STREAM_CAPS, isStreamPath, streamCapsFrom, StreamPlaces } from "./streams";

/** A build's route manifest as React Router writes it: ids, parents, paths, the modules' `handle`. */
const build = {
  root: { id: "root", path: "", module: {} },
  learn: { id: "learn", parentId: "root", path: "learn", module: {} },
  private: { id: "private", parentId: "learn", module: {} },
  course: { id: "course", parentId: "private", path: "courses/:id", module: {} },
  chat: { id: "chat", parentId: "private", path: "courses/:id/chat-events", module: { handle: { stream: true } } },
  splat: { id: "splat", parentId: "learn", path: "*", module: {} },
} as unknown as ServerBuild["routes"];

describe("the route table: templates and streams as the router declares them", () => {
  const table = routeTable(build);
  it.each([
    ["/learn/courses/c-1", "/learn/courses/:id", false],
    ["/learn/courses/c-1/chat-events", "/learn/courses/:id/chat-events", true],
    ["/learn/zzzzqqqq/anything", "/learn/*", false],
  ])("%s → %s (stream %s)", (path, template, stream) => {
    expect(table.match(path)).toMatchObject({ template, stream });
  });
  it("a path no route takes is null; the API's tutor stream is a stream by its declared path", () => {
    expect(table.match("/scorm/abcdef/x")).toBeNull();
    expect(isStreamPath(table, "/api/lms-km/v1/users/me/objective-workflow-aggregates/a1/tutor-questions/stream")).toBe(
      true,
    );
    expect(isStreamPath(table, "/api/lms/v1/courses")).toBe(false);
  });
});

describe("stream places", () => {
  it("caps streams per client and per node; a place given back is free again, once", () => {
    const places = new StreamPlaces({ perClient: 2, perNode: 3 });
    const a1 = places.take("a")!;
    expect(places.take("a")).not.toBeNull();
    expect(places.take("a")).toBeNull();
    expect(places.take("b")).not.toBeNull();
    expect(places.take("c")).toBeNull(); // the node is full
    a1();
    a1();
    expect(places.stats()).toEqual({ open: 2, clients: 2 });
    expect(places.take("c")).not.toBeNull();
  });
  it("reads STREAMS_PER_CLIENT and STREAMS_PER_NODE", () => {
    expect(streamCapsFrom({})).toEqual(DEFAULT_STREAM_CAPS);
    expect(streamCapsFrom({ STREAMS_PER_CLIENT: "3", STREAMS_PER_NODE: "10" })).toEqual({ perClient: 3, perNode: 10 });
    expect(() => streamCapsFrom({ STREAMS_PER_CLIENT: "0" })).toThrow(/STREAMS_PER_CLIENT/);
  });
});

describe("eight header-less streams from one learner do not shut the door (a node with a floor of 2)", () => {
  let server: Server;
  let port = 0;
  const admission = new AdmissionControl({
    maxWaitMs: 300,
    maxQueue: 100,
    minConcurrency: 2,
    maxConcurrency: 2,
    retryAfterSeconds: 1,
  });
  const overload = createOverloadResponder({ "en-US": { title: "Busy", text: "Try again." } }, 1);
  const table = routeTable(build);
  const gate = admissionGate(admission, overload, {
    isStream: (req) => isStreamPath(table, (req.url ?? "/").split("?")[0]!),
    places: new StreamPlaces({ perClient: 6, perNode: 100 }),
  });
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (gate(req, res, handle)) return;
    if (req.url!.endsWith("/chat-events")) {
      // An event stream: headers now, then it stays open.
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write("retry: 3000\n\n");
      return;
    }
    res.writeHead(200, { "Content-Type": "text/plain" });
    res.end("page");
  };

  beforeAll(async () => {
    server = createServer(handle);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    admission.close();
    server.closeAllConnections();
    server.close();
  });

  /** A GET as `curl -N` sends it: no Accept header; resolves with its status once the headers came. */
  const open = (path: string, cookie: string) =>
    new Promise<{ status: number; close: () => void }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path, headers: { Cookie: cookie }, agent: false }, (res) => {
        resolve({ status: res.statusCode!, close: () => req.destroy() });
      });
      req.on("error", reject);
      req.end();
    });

  it("the first six streams are served, the next two refused; another learner's pages and streams are served", async () => {
    const streams = [];
    for (let i = 0; i < 8; i++) streams.push(await open("/learn/courses/c-1/chat-events", "learn_session=ada"));
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200, 200, 200, 503, 503]);
    const pages = await Promise.all(Array.from({ length: 6 }, () => open("/learn/courses/c-1", "learn_session=rita")));
    expect(pages.map((p) => p.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const other = await open("/learn/courses/c-1/chat-events", "learn_session=rita");
    expect(other.status).toBe(200);
    // A stream closed gives its place back.
    streams[0]!.close();
    await new Promise((r) => setTimeout(r, 50));
    const again = await open("/learn/courses/c-1/chat-events", "learn_session=ada");
    expect(again.status).toBe(200);
    for (const s of [...streams, ...pages, other, again]) s.close();
  });
});
