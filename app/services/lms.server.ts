import type { ApiMessage, CommandStatus } from "#domain/contract/common";
import { log } from "~/services/logger.server";
import type { Endpoint } from "#domain/contract/endpoints";
import type { Transport } from "./config.server";

/**
 * The one client of the LMS API (spec 7): JSON headers, X-Requested-With, Prefer, Accept-Language,
 * the bearer token; the asynchronous command pattern of 7.7; errors flattened per field (spec 5, 8).
 * Every call names its endpoint from `domain/contract/endpoints.ts`. The transport comes from the
 * request's context: in-process to the embedded API, or HTTP to `LMS_API_URL` (decision 015).
 */
const POLL_INTERVAL_MS = 1000;
export const POLL_DURATION_MS = 60_000;

/** Field → messages. "" holds messages about the whole request. */
export type FieldErrors = Record<string, string[]>;

/** An error from the LMS; `status` 0 means the server never answered. */
export class LmsError extends Error {
  constructor(
    readonly status: number,
    readonly messages: Record<string, ApiMessage[]>,
    readonly kind: "http" | "command" | "timeout" = "http",
    /** A 429's (or 503's) Retry-After, in seconds, when the API said it. */
    readonly retryAfterSeconds: number | null = null,
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
  transport: Transport;
  /** Origin and prefix of the API: the external API's URL, or a placeholder for the in-process one. */
  baseUrl?: string | null;
  sleep?: (ms: number) => Promise<void>;
  onUnauthorized?: () => never;
  /**
   * A read the API refused for too many requests (429): the page cannot be shown, so the client stops
   * the loader here (the app's 429 page, issue 29). Commands are not stopped: their action says it in a toast.
   */
  onTooManyRequests?: (retryAfterSeconds: number | null) => never;
  /** The visitor's address, sent as X-Client-IP (the API limits public lookups per address). */
  clientIp?: string;
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

/** Retry-After in seconds (a number of seconds, or an HTTP date), or null when absent or garbled. */
export function retryAfterOf(res: Response): number | null {
  const value = res.headers.get("Retry-After")?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - Date.now()) / 1000)) : null;
}

/** The error for an answer that is not OK, with its messages and any Retry-After. */
async function errorOf(res: Response, kind: LmsError["kind"] = "http"): Promise<LmsError> {
  return new LmsError(res.status, await readErrors(res), kind, retryAfterOf(res));
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

/** The in-process API is addressed by a placeholder origin (the transport never opens a socket). */
const IN_PROCESS_BASE = "http://lms.internal";

export function createLmsClient(options: LmsClientOptions) {
  const transport = options.transport;
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const base = (options.baseUrl ?? IN_PROCESS_BASE).replace(/\/$/, "");

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
    // A form with files goes as multipart (the Request sets the boundary); anything else as JSON.
    const form = init.body instanceof FormData ? init.body : null;
    if (init.body !== undefined && !form) headers.set("Content-Type", "application/json");
    if (init.prefer) headers.set("Prefer", init.prefer);
    if (options.accessToken) headers.set("Authorization", `Bearer ${options.accessToken}`);
    if (options.clientIp) headers.set("X-Client-IP", options.clientIp);
    // A command's status location is absolute on an external API and a path on ours.
    const url = /^https?:\/\//.test(path) ? path : `${base}${path}${toQuery(init.query)}`;
    let res: Response;
    try {
      res = await transport(
        new Request(url, {
          method,
          headers,
          body: form ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
        }),
      );
    } catch (err) {
      log().error({ err, method, path }, "lms: request failed");
      throw new LmsError(0, {});
    }
    if (res.status === 401 && options.onUnauthorized) options.onUnauthorized();
    return res;
  }

  async function json<T>(res: Response): Promise<T> {
    if (!res.ok) throw await errorOf(res);
    return (await res.json()) as T;
  }

  return {
    get: async <T>(endpoint: Endpoint<T>, query?: Query) => {
      const res = await send(endpoint.method, endpoint.path, { query });
      if (res.status === 429 && options.onTooManyRequests) options.onTooManyRequests(retryAfterOf(res));
      return json<T>(res);
    },
    /** The API's response as it is (files: status, headers and a streamed body). */
    raw: (method: "GET" | "HEAD", endpoint: Endpoint<unknown>, extraHeaders: Record<string, string> = {}) =>
      send(method, endpoint.path, { extraHeaders }),
    put: async <T, B>(endpoint: Endpoint<T, B>, body: B) => json<T>(await send("PUT", endpoint.path, { body })),
    /** A POST whose answer is read as it comes (a server-sent event stream): the response as it is. */
    postStream: <B>(endpoint: Endpoint<unknown, B>, body: B) =>
      send("POST", endpoint.path, { body, extraHeaders: { "Cache-Control": "no-cache" } }),

    /**
     * Spec 7.7: a command is sent with Prefer respond-async; a 202 carries a status location that is
     * polled every second for up to a minute. Commands spec 7.3 marks respond-sync answer at once.
     */
    async command<T, B>(endpoint: Endpoint<T, B>, body: B): Promise<T> {
      const sync = endpoint.command?.sync ?? false;
      const res = await send("POST", endpoint.path, { body, prefer: sync ? "respond-sync" : "respond-async" });
      if (res.status !== 202) {
        if (!res.ok) throw await errorOf(res);
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
        if (!poll.ok) throw await errorOf(poll, "command");
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
