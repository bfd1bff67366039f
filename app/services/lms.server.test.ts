import { describe, expect, it, vi } from "vitest";

import type { Endpoint } from "#domain/contract/endpoints";
import { createLmsClient, flattenErrors, LmsError, POLL_DURATION_MS } from "./lms.server";

/** Endpoints of the kinds the client sends: a read, an asynchronous command and a respond-sync one. */
const read: Endpoint<unknown> = { method: "GET", path: "/x" };
const asyncCommand: Endpoint<unknown, object> = { method: "POST", path: "/api/lms/v1/x", command: { sync: false } };
const syncCommand: Endpoint<unknown, object> = { method: "POST", path: "/api/lms/v1/x", command: { sync: true } };

function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

describe("spec 7: the shared client's headers", () => {
  it("sends JSON headers, X-Requested-With, Prefer, Accept-Language and the bearer token", async () => {
    const seen: Request[] = [];
    const client = createLmsClient({
      accessToken: "tok",
      locale: "de",
      transport: (req) => {
        seen.push(req);
        return jsonResponse({ id: "c1", type: "t", state: "completed", result: 1, data: { ok: true }, errors: {} });
      },
    });
    await client.command(syncCommand, { a: 1 });
    const req = seen[0];
    expect(req.headers.get("accept")).toBe("application/json");
    expect(req.headers.get("content-type")).toBe("application/json");
    expect(req.headers.get("x-requested-with")).toBe("XMLHttpRequest");
    expect(req.headers.get("prefer")).toBe("respond-sync");
    expect(req.headers.get("accept-language")).toBe("de");
    expect(req.headers.get("authorization")).toBe("Bearer tok");
    expect(await req.json()).toEqual({ a: 1 });
  });

  it("sends a form with files as multipart/form-data (chat attachments), the files intact", async () => {
    const seen: Request[] = [];
    const client = createLmsClient({
      accessToken: "tok",
      locale: "en-US",
      transport: (req) => {
        seen.push(req);
        return jsonResponse({ id: "c1", type: "t", state: "completed", result: 1, data: {}, errors: {} });
      },
    });
    const form = new FormData();
    form.set("body", "hi");
    form.append("attachments", new File(["%PDF-1.4"], "a.pdf"));
    await client.command(syncCommand as Endpoint<unknown, FormData>, form);
    expect(seen[0].headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    const sent = await seen[0].formData();
    expect(sent.get("body")).toBe("hi");
    expect(await (sent.get("attachments") as File).text()).toBe("%PDF-1.4");
  });
});

describe("spec 7.7: asynchronous commands", () => {
  it("polls the status location every second until the command completes", async () => {
    let polls = 0;
    const sleep = vi.fn(async () => {});
    const client = createLmsClient({
      accessToken: "tok",
      locale: "en-US",
      sleep,
      transport: (req) => {
        if (req.method === "POST") {
          expect(req.headers.get("prefer")).toBe("respond-async");
          return jsonResponse({ state: "pending" }, 202, { Location: "/api/lms/v1/commands/1" });
        }
        polls++;
        return jsonResponse({
          id: "1",
          type: "t",
          state: polls < 3 ? "pending" : "completed",
          result: polls < 3 ? null : 1,
          data: { done: polls },
          errors: {},
        });
      },
    });
    expect(await client.command(asyncCommand, {})).toEqual({ done: 3 });
    expect(polls).toBe(3);
    expect(sleep).toHaveBeenCalledTimes(2);
    expect(sleep).toHaveBeenCalledWith(1000);
  });

  it("gives up with 'Time over!' after 60 s of pending", async () => {
    let clock = 0;
    vi.spyOn(Date, "now").mockImplementation(() => clock);
    const client = createLmsClient({
      accessToken: "tok",
      locale: "en-US",
      sleep: async (ms) => void (clock += ms),
      transport: (req) =>
        req.method === "POST"
          ? jsonResponse({}, 202, { Location: "/api/lms/v1/commands/1" })
          : jsonResponse({ id: "1", type: "t", state: "pending", result: null, data: null, errors: {} }),
    });
    const err = (await client.command(asyncCommand, {}).catch((e) => e)) as InstanceType<typeof LmsError>;
    vi.restoreAllMocks();
    expect(err).toBeInstanceOf(LmsError);
    expect(err.message).toBe("Time over!");
    expect(clock).toBeGreaterThanOrEqual(POLL_DURATION_MS);
  });

  it("reports a failed command with its messages (status 400)", async () => {
    const client = createLmsClient({
      accessToken: "tok",
      locale: "en-US",
      transport: (req) =>
        req.method === "POST"
          ? jsonResponse({}, 202, { Location: "/c/1" })
          : jsonResponse({
              id: "1",
              type: "t",
              state: "failed",
              result: 2,
              data: { status: 409 },
              errors: { "": [{ code: "x", message: "No" }] },
            }),
    });
    const err = (await client.command(asyncCommand, {}).catch((e) => e)) as InstanceType<typeof LmsError>;
    expect(err.status).toBe(409);
    expect(err.message).toBe("Server accepted command but encountered errors");
    expect(err.firstMessage()).toEqual({ code: "x", message: "No" });
  });

  it("a 500 says the server returned an unknown error; a 401 calls onUnauthorized", async () => {
    const client = createLmsClient({
      accessToken: "t",
      locale: "en-US",
      transport: () => new Response("boom", { status: 500 }),
    });
    const err = (await client.get(read).catch((e) => e)) as InstanceType<typeof LmsError>;
    expect(err.message).toBe("Server returns unknown error");
    const onUnauthorized = vi.fn(() => {
      throw new Error("relogin");
    }) as unknown as () => never;
    const c2 = createLmsClient({
      accessToken: "t",
      locale: "en-US",
      transport: () => jsonResponse({}, 401),
      onUnauthorized,
    });
    await expect(c2.get(read)).rejects.toThrow("relogin");
  });

  it("issue 29: a read's 429 calls onTooManyRequests with Retry-After; a command's 429 is an LmsError that keeps it", async () => {
    const tooMany = () =>
      new Response(JSON.stringify({ errors: { "": [{ code: "tooManyRequests", message: "…" }] } }), {
        status: 429,
        headers: { "Content-Type": "application/json", "Retry-After": "42" },
      });
    const onTooManyRequests = vi.fn((seconds: number | null) => {
      throw new Error(`429 page, ${seconds} s`);
    }) as unknown as (seconds: number | null) => never;
    const client = createLmsClient({ accessToken: "t", locale: "en-US", transport: tooMany, onTooManyRequests });
    await expect(client.get(read)).rejects.toThrow("429 page, 42 s");
    const err = (await client.command(syncCommand, { x: 1 }).catch((e) => e)) as InstanceType<typeof LmsError>;
    expect(err).toBeInstanceOf(LmsError);
    expect([err.status, err.retryAfterSeconds]).toEqual([429, 42]);
  });

  it("a transport failure is an LmsError with status 0, not a crash", async () => {
    const client = createLmsClient({
      accessToken: "t",
      locale: "en-US",
      transport: () => Promise.reject(new Error("ECONNREFUSED")),
    });
    const err = (await client.get(read).catch((e) => e)) as InstanceType<typeof LmsError>;
    expect(err).toBeInstanceOf(LmsError);
    expect(err.status).toBe(0);
  });
});

describe("spec 5: errors flattened per field; unknown messages become 'Unknown error'", () => {
  it("translates known codes and falls back for the rest", () => {
    const t = (code: string, params?: Record<string, unknown>) =>
      code === "maxLength" ? `Maximum length is ${params?.length}` : code === "required" ? "Field is required" : null;
    expect(
      flattenErrors(
        {
          name: [
            { code: "required", message: "x" },
            { code: "maxLength", message: "y", params: { length: 5 } },
          ],
          "": [{ code: "weird", message: "z" }],
        },
        t,
        "Unknown error",
      ),
    ).toEqual({ name: ["Field is required", "Maximum length is 5"], "": ["Unknown error"] });
  });
});
