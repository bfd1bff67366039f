/**
 * Who sent a request (decision 050, "a trusted proxy"): the socket's address, or — when the socket is a
 * proxy the operator named in TRUST_PROXY — the address that proxy says in `X-Forwarded-For`, read from
 * the right and stopping at the first hop that is not trusted (proxy-addr, Express's reading). A
 * client's own `X-Forwarded-For` is never believed: only hops the operator trusts are skipped.
 *
 * Everything that counts or checks by address reads it here: the body budget's readers per address, the
 * streams' places of anonymous visitors, the identity provider's sign-in and sign-up limits, the API's
 * public lookups and analytics limits (`X-Client-IP`), the loopback checks of the operator endpoints
 * and test support. Server-only.
 */
import type { IncomingMessage } from "node:http";
import proxyAddr from "proxy-addr";

/** The address a request counts by. */
export type AddressOf = (req: IncomingMessage) => string;

/** The socket's own address (no proxy trusted). */
export const socketAddress: AddressOf = (req) => req.socket.remoteAddress ?? "unknown";

/**
 * TRUST_PROXY as a list: comma-separated addresses, CIDR ranges or proxy-addr's names (`loopback`,
 * `linklocal`, `uniquelocal`). Throws with the reason for a value proxy-addr does not read.
 */
export function trustedProxies(value: string): string[] {
  const list = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length > 0) proxyAddr.compile(list);
  return list;
}

/** The reader for a trust list; with none, the socket's address. One answer per request (cached). */
export function clientAddresses(trust: readonly string[]): AddressOf {
  if (trust.length === 0) return socketAddress;
  const trusted = proxyAddr.compile([...trust]);
  const seen = new WeakMap<IncomingMessage, string>();
  return (req) => {
    let address = seen.get(req);
    if (address === undefined) {
      address = req.socket.remoteAddress ? proxyAddr(req, trusted) : "unknown";
      seen.set(req, address);
    }
    return address;
  };
}

/** The Node request behind a Hono context of `@hono/node-server` (its `env.incoming`), if any. */
export function incomingOf(env: unknown): IncomingMessage | null {
  const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.socket ? incoming : null;
}
