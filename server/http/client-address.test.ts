import { describe, expect, it } from "vitest";
import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { parseServerConfig } from "../config";
import { streamClient } from "../overload/streams";
import { BodyBudget } from "./body-budget";
import { clientAddresses, socketAddress, trustedProxies } from "./client-address";

/** A request as the server sees it: the socket's address and the headers the client (or a proxy) sent. */
function request(remoteAddress: string | undefined, forwardedFor?: string): IncomingMessage {
  const req = new PassThrough() as unknown as IncomingMessage;
  Object.assign(req, {
    socket: { remoteAddress },
    headers: { "content-length": "4", ...(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }) },
  });
  return req;
}

describe("who sent a request (TRUST_PROXY, decision 050)", () => {
  it.each([
    // trusted proxies, socket address, X-Forwarded-For, the address that counts
    [[], "203.0.113.7", undefined, "203.0.113.7"],
    [[], "127.0.0.1", "198.51.100.1", "127.0.0.1"], // no proxy trusted: a client's claim is never read
    [["loopback"], "127.0.0.1", "198.51.100.1", "198.51.100.1"], // nginx on this machine
    [["loopback"], "::1", "198.51.100.1", "198.51.100.1"],
    [["loopback"], "::ffff:127.0.0.1", "198.51.100.1", "198.51.100.1"],
    [["loopback"], "203.0.113.7", "198.51.100.1", "203.0.113.7"], // not from the proxy: its own address
    [["loopback"], "127.0.0.1", undefined, "127.0.0.1"], // the proxy itself (a health check)
    // The client wrote its own X-Forwarded-For; the proxy appended the address it saw: that one counts.
    [["loopback"], "127.0.0.1", "10.9.9.9, 198.51.100.1", "198.51.100.1"],
    // Two proxies trusted in a row (a load balancer, then nginx): the first untrusted hop from the right.
    [["loopback", "10.0.0.0/8"], "127.0.0.1", "198.51.100.1, 10.1.2.3", "198.51.100.1"],
    [["10.0.0.5"], "10.0.0.5", "198.51.100.1", "198.51.100.1"],
    [["10.0.0.5"], "10.0.0.6", "198.51.100.1", "10.0.0.6"],
    [["loopback"], "127.0.0.1", "not an address", "not an address"], // counted as what the proxy said
    [["loopback"], undefined, "198.51.100.1", "unknown"], // a socket already gone
  ])("trust %j, socket %s, X-Forwarded-For %s → %s", (trust, socket, forwarded, expected) => {
    expect(clientAddresses(trust)(request(socket, forwarded))).toBe(expected);
  });

  it("with no proxy trusted the socket's reader is used as is", () => {
    expect(clientAddresses([])).toBe(socketAddress);
  });

  it("TRUST_PROXY reads a comma list and refuses what is not an address, a range or a known name", () => {
    expect(trustedProxies(" loopback, 10.0.0.0/8 ,,192.168.1.1 ")).toEqual(["loopback", "10.0.0.0/8", "192.168.1.1"]);
    expect(trustedProxies("")).toEqual([]);
    const base = { APP_URL: "http://localhost:3000", PORT: "3000" };
    expect(parseServerConfig({ ...base, TRUST_PROXY: "loopback" }).trustProxy).toEqual(["loopback"]);
    expect(parseServerConfig(base).trustProxy).toEqual([]);
    expect(() => parseServerConfig({ ...base, TRUST_PROXY: "nginx.local" })).toThrow(/TRUST_PROXY: .*nginx\.local/);
  });

  it("behind a trusted proxy each visitor has her own readers and her own streams, not the proxy's", () => {
    const addressOf = clientAddresses(["loopback"]);
    const budget = new BodyBudget(
      { minBytesPerSecond: 0, readTimeoutMs: 0, readersPerAddress: 1, graceMs: 0 },
      undefined,
      addressOf,
    );
    const first = request("127.0.0.1", "198.51.100.1");
    expect(budget.read(first, 100)).not.toBeNull();
    // Another visitor through the same proxy starts her body; the first visitor's second one is refused.
    expect(budget.read(request("127.0.0.1", "198.51.100.2"), 100)).not.toBeNull();
    expect(budget.read(request("127.0.0.1", "198.51.100.1"), 100)).toBeNull();
    expect(budget.reading("198.51.100.1")).toBe(1);
    // Without the setting, everyone behind the proxy is one address.
    const flat = new BodyBudget({ minBytesPerSecond: 0, readTimeoutMs: 0, readersPerAddress: 1, graceMs: 0 });
    expect(flat.read(request("127.0.0.1", "198.51.100.1"), 100)).not.toBeNull();
    expect(flat.read(request("127.0.0.1", "198.51.100.2"), 100)).toBeNull();

    expect(streamClient(request("127.0.0.1", "198.51.100.1"), addressOf)).toBe("a:198.51.100.1");
    expect(streamClient(request("127.0.0.1", "198.51.100.1"))).toBe("a:127.0.0.1");
  });
});
