/**
 * Long-lived streams (server-sent events: the chat, a course's progress, the tutor's answer) have places
 * of their own (decision 050): a route is a stream because its module says so (`handle.stream`, read by
 * the front from the router's table), never because the client's `Accept` says so. A stream holds no
 * place of the overload gate's (decision 038), so any number of them cannot take the pages' floor;
 * instead one client has at most `perClient` open at once and the node at most `perNode`.
 *
 * A client is its session cookie's value (a signed-in learner's browser), else its address. Server-only.
 */
import type { IncomingMessage } from "node:http";
import type { RouteTable } from "../http/route-table";
import { socketAddress, type AddressOf } from "../http/client-address";

export interface StreamCaps {
  /** Streams one client (session, or address without one) may have open at once. */
  perClient: number;
  /** Streams the node keeps open at once. */
  perNode: number;
}

/**
 * Defaults (decision 050): a learner's tabs each open one or two streams (chat and progress), so 6 is
 * three tabs of a course; 4,000 open streams cost the node about 40 MB (10 KB each, measured with the
 * chat's) and no CPU while they are quiet.
 */
export const DEFAULT_STREAM_CAPS: StreamCaps = { perClient: 6, perNode: 4_000 };

/** STREAMS_PER_CLIENT and STREAMS_PER_NODE; a value that is not a whole number ≥ 1 stops the server. */
export function streamCapsFrom(env: Record<string, string | undefined>): StreamCaps {
  const whole = (name: string, fallback: number) => {
    const value = env[name];
    if (value === undefined || value === "") return fallback;
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a whole number ≥ 1, got "${value}"`);
    return n;
  };
  return {
    perClient: whole("STREAMS_PER_CLIENT", DEFAULT_STREAM_CAPS.perClient),
    perNode: whole("STREAMS_PER_NODE", DEFAULT_STREAM_CAPS.perNode),
  };
}

const SESSION_COOKIE = /(?:^|;\s*)(?:__Host-)?learn_session=([^;]+)/;

/** Who a stream counts against: the session cookie's value, else the client's address. */
export function streamClient(req: IncomingMessage, addressOf: AddressOf = socketAddress): string {
  const session = SESSION_COOKIE.exec(req.headers.cookie ?? "")?.[1];
  return session ? `s:${session}` : `a:${addressOf(req)}`;
}

export class StreamPlaces {
  private byClient = new Map<string, number>();
  private open = 0;

  constructor(readonly caps: StreamCaps) {}

  /** Takes a place for `client`'s stream: a function that gives it back (once), or null when full. */
  take(client: string): (() => void) | null {
    const held = this.byClient.get(client) ?? 0;
    if (held >= this.caps.perClient || this.open >= this.caps.perNode) return null;
    this.byClient.set(client, held + 1);
    this.open++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.open--;
      const left = (this.byClient.get(client) ?? 1) - 1;
      if (left <= 0) this.byClient.delete(client);
      else this.byClient.set(client, left);
    };
  }

  stats(): { open: number; clients: number } {
    return { open: this.open, clients: this.byClient.size };
  }
}

/** The API's own stream (the tutor's answer, for a client with a token), declared by its route there. */
const API_STREAMS = [/^\/api\/lms-km\/v1\/users\/me\/objective-workflow-aggregates\/[^/]+\/tutor-questions\/stream$/];

/** Whether a path's route is a stream: the pages' router says so (`handle.stream`), or the API's table above. */
export function isStreamPath(routes: RouteTable, path: string): boolean {
  if (path.startsWith("/api/")) return API_STREAMS.some((pattern) => pattern.test(path));
  return routes.match(path)?.stream === true;
}
