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
import { RateCheck, type BodyBudgetOptions } from "./body-rate";
import { socketAddress, type AddressOf } from "./client-address";
import { audienceOf, continueIfAwaited, refusalResponse, sendResponse, type LimitRefusal } from "./front";

/** Why a body's read was stopped: too slow (408), or the body passed `maxBytes` (413). */
export type BodyOutcome =
  { kind: "read"; body: Buffer } | { kind: "tooSlow" } | { kind: "tooLarge" } | { kind: "broken" };

/** Whether a request says it carries a body (its headers; the body itself is not touched). */
function declaresBody(req: IncomingMessage): boolean {
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const length = Number(req.headers["content-length"] ?? "0");
  return !(length === 0);
}

export class BodyBudget {
  private readers = new Map<string, number>();

  constructor(
    readonly options: BodyBudgetOptions,
    private readonly now: () => number = () => performance.now(),
    /** The client address a budget counts by: the socket's, or a trusted proxy's word (TRUST_PROXY). */
    private readonly addressOf: AddressOf = socketAddress,
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
    const address = this.addressOf(req);
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
  options: { maxBytes: (path: string) => number; exempt: (path: string) => boolean; answers: BodyBudgetAnswers },
) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const withBody = req as WithRawBody;
    if (withBody.rawBody !== undefined || req.method === "GET" || req.method === "HEAD" || !declaresBody(req))
      return next();
    const path = (req.url ?? "/").split("?", 1)[0]!;
    if (options.exempt(path)) return next();
    // A declared length past the path's limit is refused unread.
    const maxBytes = options.maxBytes(path);
    if (Number(req.headers["content-length"] ?? "NaN") > maxBytes) {
      res.shouldKeepAlive = false;
      return options.answers.tooLarge(req, res);
    }
    const reading = budget.read(req, maxBytes);
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
