import type { ApiMessage, CommandStatus } from "#domain/contract/common";
import { env } from "./env.server";

/**
 * The one client of the LMS API (spec 7): JSON headers, X-Requested-With, Prefer, Accept-Language,
 * the bearer token; the asynchronous command pattern of 7.7; errors flattened per field (spec 5, 8).
 * In-process to the embedded API unless LMS_API_URL points at a remote one.
 */
export type Transport = (request: Request) => Promise<Response> | Response;

const IN_PROCESS = Symbol.for("learner-app.lms-fetch");

export function defaultTransport(): Transport {
  const remote = env().LMS_API_URL;
  if (remote) return (request) => fetch(request);
  const local = (globalThis as Record<symbol, unknown>)[IN_PROCESS] as Transport | undefined;
  if (!local) throw new Error("The embedded LMS API is not running and LMS_API_URL is not set.");
  return local;
}

export function apiBase(): string {
  return (env().LMS_API_URL ?? "http://lms.internal").replace(/\/$/, "");
}

export const POLL_INTERVAL_MS = 1000;
export const POLL_DURATION_MS = 60_000;

/** Field → messages. "" holds messages about the whole request. */
export type FieldErrors = Record<string, string[]>;

/** An error from the LMS; `status` 0 means the server never answered. */
export class LmsError extends Error {
  constructor(
    readonly status: number,
    readonly messages: Record<string, ApiMessage[]>,
    readonly kind: "http" | "command" | "timeout" = "http",
  ) {
    super(LmsError.describe(status, kind));
  }

  static describe(status: number, kind: LmsError["kind"]): string {
    if (kind === "timeout") return "Time over!";
    if (kind === "command")
      return status >= 500
        ? "Server accepted command but encountered an unknown error"
        : "Server accepted command but encountered errors";
    return status >= 500 ? "Server returns unknown error" : `HTTP ${status}`;
  }

  /** First real message of the error list (spec 8: shown as a critical toast). */
  firstMessage(): ApiMessage | null {
    for (const list of Object.values(this.messages)) if (list[0]) return list[0];
    return null;
  }
}

/** Spec 5: errors flattened to lists of messages per field; unknown codes read as 'Unknown error'. */
export function flattenErrors(
  messages: Record<string, ApiMessage[]>,
  translate: (code: string, params?: Record<string, unknown>) => string | null,
  unknown: string,
): FieldErrors {
  const out: FieldErrors = {};
  for (const [field, list] of Object.entries(messages)) {
    out[field] = list.map((m) => translate(m.code, m.params) ?? unknown);
  }
  return out;
}

export interface LmsClientOptions {
  accessToken: string | null;
  locale: string;
  transport?: Transport;
  sleep?: (ms: number) => Promise<void>;
  onUnauthorized?: () => never;
}

type Query = Record<string, string | number | boolean | undefined | null | readonly string[]>;

function toQuery(query?: Query): string {
  if (!query) return "";
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) v.forEach((x) => p.append(k, x));
    else p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}

async function readErrors(res: Response): Promise<Record<string, ApiMessage[]>> {
  try {
    const body = (await res.json()) as { errors?: Record<string, ApiMessage[]> };
    if (body && typeof body.errors === "object" && body.errors) return body.errors;
  } catch {
    // not JSON: fall through to an empty list (the status still tells what happened)
  }
  return {};
}

export function createLmsClient(options: LmsClientOptions) {
  const transport = options.transport ?? defaultTransport();
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const base = options.transport ? "http://lms.internal" : apiBase();

  async function send(
    method: string,
    path: string,
    init: { body?: unknown; prefer?: string; query?: Query; extraHeaders?: Record<string, string> } = {},
  ) {
    const headers = new Headers({
      ...init.extraHeaders,
      Accept: "application/json",
      "X-Requested-With": "XMLHttpRequest",
      "Accept-Language": options.locale,
    });
    if (init.body !== undefined) headers.set("Content-Type", "application/json");
    if (init.prefer) headers.set("Prefer", init.prefer);
    if (options.accessToken) headers.set("Authorization", `Bearer ${options.accessToken}`);
    const url = path.startsWith("http") ? path : `${base}${path}${toQuery(init.query)}`;
    let res: Response;
    try {
      res = await transport(
        new Request(url, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) }),
      );
    } catch (err) {
      console.error("[lms] request failed", method, path, err);
      throw new LmsError(0, {});
    }
    if (res.status === 401 && options.onUnauthorized) options.onUnauthorized();
    return res;
  }

  async function json<T>(res: Response): Promise<T> {
    if (!res.ok) throw new LmsError(res.status, await readErrors(res));
    return (await res.json()) as T;
  }

  return {
    get: async <T>(path: string, query?: Query) => json<T>(await send("GET", path, { query })),
    /** The API's response as it is (files: status, headers and a streamed body). */
    raw: (method: "GET" | "HEAD", path: string, extraHeaders: Record<string, string> = {}) =>
      send(method, path, { extraHeaders }),
    put: async <T>(path: string, body: unknown) => json<T>(await send("PUT", path, { body })),
    post: async <T>(path: string, body: unknown, prefer?: string) =>
      json<T>(await send("POST", path, { body, prefer })),

    /**
     * Spec 7.7: send with Prefer respond-async; a 202 carries a status location that is polled
     * every second for up to a minute. `sync` asks for respond-sync (spec 7.3 names which).
     */
    async command<T = unknown>(path: string, body: unknown, opts: { sync?: boolean } = {}): Promise<T> {
      const res = await send("POST", path, { body, prefer: opts.sync ? "respond-sync" : "respond-async" });
      if (res.status !== 202) {
        if (!res.ok) throw new LmsError(res.status, await readErrors(res));
        const status = (await res.json()) as CommandStatus;
        return (status.data ?? status) as T;
      }
      const location = res.headers.get("Location");
      if (!location) throw new LmsError(500, {}, "command");
      const started = Date.now();
      let first = true;
      while (Date.now() - started < POLL_DURATION_MS) {
        if (!first) await sleep(POLL_INTERVAL_MS);
        first = false;
        const poll = await send("GET", location);
        if (!poll.ok) throw new LmsError(poll.status, await readErrors(poll), "command");
        const status = (await poll.json()) as CommandStatus;
        if (status.state === "completed") return status.data as T;
        if (status.state === "failed") {
          const code = (status.data as { status?: number } | null)?.status ?? 400;
          throw new LmsError(code, status.errors ?? {}, "command");
        }
      }
      throw new LmsError(0, {}, "timeout");
    },
  };
}

export type LmsClient = ReturnType<typeof createLmsClient>;
