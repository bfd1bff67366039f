/**
 * The body budget (decision 050): a request's body is read before the request asks the overload gate
 * for a place, so a client that sends its body slowly holds a socket and a few bytes of memory, never a
 * place the server's other requests need. Reading a body has its own bounds:
 *
 * - a **rate**: from `graceMs` on, the bytes received must keep up with `minBytesPerSecond` × the
 *   seconds since the headers came; a body that falls behind gets 408 (`http.tooSlow`) and its
 *   connection is closed;
 * - a **total time** (`readTimeoutMs`): a body not whole by then gets the same 408, whatever its rate;
 * - **readers per address** (`readersPerAddress`): one client address reads at most so many bodies at
 *   once; one more is refused at once (the overload answer, 503 + Retry-After) without reading it.
 *
 * Node's own `headersTimeout` still bounds the headers. Bodies that stream to their handler (the
 * SCORM import, the chat's files) and the identity provider's (it reads its own) are not read here:
 * `RateCheck` bounds the former where they are read (`streamedBody`). Server-only.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { createOverloadResponder } from "../overload/admission";
import { audienceOf, continueIfAwaited, refusalResponse, sendResponse, type LimitRefusal } from "./front";

export interface BodyBudgetOptions {
  /** Bytes a second a body must keep up with once `graceMs` has passed; 0 = no rate check. */
  minBytesPerSecond: number;
  /** Longest a body may take, headers to its last byte (ms); 0 = no total bound. */
  readTimeoutMs: number;
  /** Bodies one client address may be sending at once; 0 = no cap. */
  readersPerAddress: number;
  /** How long a body may take before its rate is checked (ms). */
  graceMs: number;
}

/**
 * Defaults (decision 050): 1 KB/s after 2 s, 30 s in all, 8 bodies at once per address. A phone on a
 * poor 3G link sends tens of kilobytes a second; a form post is one packet. Eight slow connections
 * sending a byte every 8 s are answered 408 after about 2 s, each.
 */
export const DEFAULT_BODY_BUDGET: BodyBudgetOptions = {
  minBytesPerSecond: 1024,
  readTimeoutMs: 30_000,
  readersPerAddress: 8,
  graceMs: 2_000,
};

/** Why a body's read was stopped: too slow (408), or the body passed `maxBytes` (413). */
export type BodyOutcome =
  { kind: "read"; body: Buffer } | { kind: "tooSlow" } | { kind: "tooLarge" } | { kind: "broken" };

/**
 * Whether a body that started `elapsedMs` ago and has brought `received` bytes is too slow: past the
 * total time, or (after the grace) behind the minimum rate.
 */
export function bodyTooSlow(options: BodyBudgetOptions, elapsedMs: number, received: number): boolean {
  if (options.readTimeoutMs > 0 && elapsedMs >= options.readTimeoutMs) return true;
  if (options.minBytesPerSecond <= 0 || elapsedMs < options.graceMs) return false;
  return received < (options.minBytesPerSecond * elapsedMs) / 1000;
}

/**
 * The budget as a running check, for a body read elsewhere: `progress(n)` as bytes come, `tooSlow()`
 * to ask, and `deadline()` for when to ask again if no byte comes (ms from now, or null: never).
 */
export class RateCheck {
  private received = 0;
  private readonly started: number;

  constructor(
    private readonly options: BodyBudgetOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  progress(bytes: number): void {
    this.received += bytes;
  }

  tooSlow(): boolean {
    return bodyTooSlow(this.options, this.now() - this.started, this.received);
  }

  /** Milliseconds until the body becomes too slow if nothing more arrives. */
  deadline(): number | null {
    const elapsed = this.now() - this.started;
    const byTotal = this.options.readTimeoutMs > 0 ? this.options.readTimeoutMs - elapsed : Infinity;
    const byRate =
      this.options.minBytesPerSecond > 0
        ? Math.max(this.options.graceMs, (this.received * 1000) / this.options.minBytesPerSecond) - elapsed
        : Infinity;
    const next = Math.min(byTotal, byRate);
    return Number.isFinite(next) ? Math.max(0, next) : null;
  }
}

/** The client address a budget counts by: the socket's (a client's own claim is never read). */
export function clientAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? "unknown";
}

/** Whether a request says it carries a body (its headers; the body itself is not touched). */
export function declaresBody(req: IncomingMessage): boolean {
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const length = Number(req.headers["content-length"] ?? "0");
  return !(length === 0);
}

export class BodyBudget {
  private readers = new Map<string, number>();

  constructor(
    readonly options: BodyBudgetOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Bodies being read now from `address` (tests, metrics). */
  reading(address: string): number {
    return this.readers.get(address) ?? 0;
  }

  /** Whether `address` may start one more body now; if so, it is counted until `release`. */
  private enter(address: string): boolean {
    const count = this.readers.get(address) ?? 0;
    if (this.options.readersPerAddress > 0 && count >= this.options.readersPerAddress) return false;
    this.readers.set(address, count + 1);
    return true;
  }

  private release(address: string): void {
    const count = (this.readers.get(address) ?? 1) - 1;
    if (count <= 0) this.readers.delete(address);
    else this.readers.set(address, count);
  }

  /**
   * Reads `req`'s body whole (at most `maxBytes`) under the budget. Resolves `null` when the address
   * already has its readers (nothing is read), else the outcome; on any outcome but `read` the caller
   * answers and closes the connection.
   */
  read(req: IncomingMessage, maxBytes: number): Promise<BodyOutcome> | null {
    const address = clientAddress(req);
    if (!this.enter(address)) return null;
    const check = new RateCheck(this.options, this.now);
    return new Promise<BodyOutcome>((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let timer: ReturnType<typeof setTimeout> | null = null;
      let settled = false;
      const finish = (outcome: BodyOutcome) => {
        if (settled) return;
        settled = true;
        if (timer) clearTimeout(timer);
        req.off("data", onData);
        req.off("end", onEnd);
        req.off("error", onError);
        req.off("aborted", onError);
        this.release(address);
        if (outcome.kind !== "read") req.pause();
        resolve(outcome);
      };
      const arm = () => {
        if (timer) clearTimeout(timer);
        const wait = check.deadline();
        if (wait === null) return;
        timer = setTimeout(() => {
          if (check.tooSlow()) finish({ kind: "tooSlow" });
          else arm();
        }, wait + 1);
        timer.unref();
      };
      const onData = (chunk: Buffer) => {
        size += chunk.byteLength;
        check.progress(chunk.byteLength);
        if (size > maxBytes) return finish({ kind: "tooLarge" });
        chunks.push(chunk);
        arm();
      };
      const onEnd = () => finish({ kind: "read", body: Buffer.concat(chunks, size) });
      const onError = () => finish({ kind: "broken" });
      req.on("data", onData);
      req.once("end", onEnd);
      req.once("error", onError);
      req.once("aborted", onError);
      arm();
    });
  }
}

/** The answers the budget gives: written by the caller (the front), which knows the pages' languages. */
export interface BodyBudgetAnswers {
  tooSlow(req: IncomingMessage, res: ServerResponse): void;
  tooLarge(req: IncomingMessage, res: ServerResponse): void;
  broken(req: IncomingMessage, res: ServerResponse): void;
  busy(req: IncomingMessage, res: ServerResponse): void;
}

/**
 * The answers in the caller's language: 408 `tooSlow`, 413, 400 as the front's refusals; a client
 * already sending its share of bodies gets the overload answer (503 + Retry-After).
 */
export function bodyBudgetAnswers(overload: ReturnType<typeof createOverloadResponder>): BodyBudgetAnswers {
  const refuse = (refusal: LimitRefusal) => (req: IncomingMessage, res: ServerResponse) => {
    const headers = new Headers();
    for (const name of ["accept", "accept-language", "cookie"]) {
      const value = req.headers[name];
      if (typeof value === "string") headers.set(name, value);
    }
    void sendResponse(res, refusalResponse(refusal, audienceOf(headers)));
  };
  return {
    tooSlow: refuse({ status: 408, code: "tooSlow" }),
    tooLarge: refuse({ status: 413, code: "tooLarge" }),
    broken: refuse({ status: 400, code: "badRequest" }),
    busy: (req, res) => {
      const answer = overload({
        cookie: req.headers.cookie,
        acceptLanguage: req.headers["accept-language"],
        accept: req.headers.accept,
      });
      res.writeHead(answer.status, { ...answer.headers, Connection: "close" });
      res.end(answer.body);
    },
  };
}

/** Marks a request whose body this front has read (Hono's Node adapter reads `rawBody` instead of the stream). */
type WithRawBody = IncomingMessage & { rawBody?: Buffer };

/**
 * The front's step: for a request that declares a body and is not `exempt`, reads it under the budget
 * and then calls `next` (the overload gate and the handlers), which read it from `rawBody`; or answers
 * (408, 413, 400, 503) and closes the connection. Every other request goes to `next` at once.
 */
export function bodyBudgetStep(
  budget: BodyBudget,
  options: { maxBytes: number; exempt: (path: string) => boolean; answers: BodyBudgetAnswers },
) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const withBody = req as WithRawBody;
    if (withBody.rawBody !== undefined || req.method === "GET" || req.method === "HEAD" || !declaresBody(req))
      return next();
    const path = (req.url ?? "/").split("?", 1)[0]!;
    if (options.exempt(path)) return next();
    // A declared length past the largest limit is refused unread.
    if (Number(req.headers["content-length"] ?? "NaN") > options.maxBytes) {
      res.shouldKeepAlive = false;
      return options.answers.tooLarge(req, res);
    }
    const reading = budget.read(req, options.maxBytes);
    if (!reading) {
      res.shouldKeepAlive = false;
      return options.answers.busy(req, res);
    }
    // A client waiting for `100 Continue` is told to send: the body is read now, before the handlers.
    continueIfAwaited(req, res);
    void reading.then((outcome) => {
      if (outcome.kind === "read") {
        withBody.rawBody = outcome.body;
        return next();
      }
      if (res.headersSent || res.destroyed) return;
      res.shouldKeepAlive = false;
      res.once("finish", () => req.socket.destroy());
      options.answers[outcome.kind](req, res);
    });
  };
}
