import { describe, expect, it } from "vitest";
import { Hono } from "hono";
import {
  bodyLimit,
  streamedBody,
  checkMethod,
  checkRequestTarget,
  chooseEncoding,
  compressResponses,
  MAX_URL_BYTES,
  refusalLocale,
  refusalResponse,
} from "./front";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

describe("request limits (spec: bodies and URLs bounded)", () => {
  it.each([
    ["/learn/courses?keyword=a", null],
    [`/learn/courses?keyword=${"a".repeat(MAX_URL_BYTES)}`, 414],
    [`/learn/courses?${Array.from({ length: 101 }, (_, i) => `p${i}=1`).join("&")}`, 400],
    [`/learn/courses?${Array.from({ length: 100 }, (_, i) => `p${i}=1`).join("&")}`, null],
  ])("%s → %s", (url, status) => {
    expect(checkRequestTarget(url)?.status ?? null).toBe(status);
  });

  const app = new Hono();
  let handled = 0;
  app.use(
    "*",
    bodyLimit(() => 1000),
  );
  app.post("*", async (c) => {
    handled++;
    return c.text(String((await c.req.text()).length));
  });
  const stream = (bytes: number) =>
    new ReadableStream({
      start(controller) {
        for (let sent = 0; sent < bytes; sent += 100) controller.enqueue(new Uint8Array(Math.min(100, bytes - sent)));
        controller.close();
      },
    });

  it("passes a body within the limit on, whole", async () => {
    const res = await app.request("/x", { method: "POST", body: "a".repeat(1000) });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("1000");
  });
  it("refuses a declared length over the limit before reading, and the handler never runs", async () => {
    const before = handled;
    const res = await app.request("/x", {
      method: "POST",
      body: "a".repeat(5000),
      headers: { "Content-Length": "5000" },
    });
    expect(res.status).toBe(413);
    expect(handled).toBe(before);
  });
  it("counts a streamed body and refuses it once it passes the limit", async () => {
    const before = handled;
    const res = await app.request("/x", { method: "POST", body: stream(50_000), duplex: "half" } as RequestInit);
    expect(res.status).toBe(413);
    expect(handled).toBe(before);
  });
  it("answers the API's JSON error shape to a JSON client", async () => {
    const res = await app.request("/x", {
      method: "POST",
      body: "a".repeat(5000),
      headers: { Accept: "application/json", "Content-Length": "5000" },
    });
    expect(await res.json()).toEqual({
      status: 413,
      title: "Request too large",
      errors: { "": [{ code: "tooLarge", message: "What was sent is too large to be accepted." }] },
    });
  });
});

describe("methods: one no route answers is 405 at the front, with Allow, in the caller's language", () => {
  it.each([
    ["GET", null],
    ["POST", null],
    ["OPTIONS", null],
    ["TRACE", 405],
    ["CONNECT", 405],
    ["PROPFIND", 405],
    [undefined, 405],
  ])("%s → %s", (method, status) => {
    expect(checkMethod(method)?.status ?? null).toBe(status);
  });
  it("the answer names the methods and speaks the caller's language", async () => {
    const res = refusalResponse(checkMethod("TRACE")!, { acceptLanguage: "de", accept: "application/json" });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toContain("POST");
    const body = (await res.json()) as { title: string };
    expect(body.title).toBe("Methode nicht erlaubt");
    const post = refusalResponse({ status: 405, code: "methodNotAllowed", allow: "POST" });
    expect(post.headers.get("Allow")).toBe("POST");
  });
});

describe("streamed bodies (issue 29 item 2)", () => {
  const app = new Hono();
  app.use(
    "*",
    streamedBody(() => 10_000),
  );
  // The upload's handler: who sends it is checked before the body is read.
  app.post("/upload", async (c) => {
    if (c.req.header("authorization") !== "Bearer author") return c.json({ status: 401 }, 401);
    try {
      return c.text(String((await c.req.arrayBuffer()).byteLength));
    } catch {
      return c.text("broken", 400);
    }
  });
  /** A body that counts what was pulled from it (made as it is asked for). */
  const counted = (bytes: number) => {
    const read = { bytes: 0 };
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (read.bytes >= bytes) return controller.close();
          const size = Math.min(1000, bytes - read.bytes);
          read.bytes += size;
          controller.enqueue(new Uint8Array(size));
        },
      },
      { highWaterMark: 0 },
    );
    return { body, read };
  };
  const post = (body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
    app.request("/upload", { method: "POST", body, headers, duplex: "half" } as RequestInit);

  it("reads nothing of a body whose sender is refused, and closes the connection after the answer", async () => {
    const { body, read } = counted(1_000_000);
    const res = await post(body);
    expect(res.status).toBe(401);
    expect(res.headers.get("connection")).toBe("close");
    expect(read.bytes).toBe(0);
  });
  it("passes a body within the limit to a handler that reads it, without buffering it first", async () => {
    const { body, read } = counted(9_000);
    const res = await post(body, { Authorization: "Bearer author" });
    expect(await res.text()).toBe("9000");
    expect(read.bytes).toBe(9_000);
    expect(res.headers.get("connection")).toBeNull();
  });
  it("cuts a body off past the limit: the front's 413, whatever the handler made of it", async () => {
    const { body, read } = counted(1_000_000);
    const res = await post(body, { Authorization: "Bearer author", Accept: "application/json" });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { errors: Record<string, { code: string }[]> }).errors[""]![0]!.code).toBe(
      "tooLarge",
    );
    expect(read.bytes).toBeLessThanOrEqual(11_000);
  });
  it("cuts a body off that falls behind the body budget's rate: 408", async () => {
    const slow = new Hono();
    slow.use(
      "*",
      streamedBody(() => 10_000, { minBytesPerSecond: 1000, readTimeoutMs: 5_000, readersPerAddress: 0, graceMs: 100 }),
    );
    slow.post("/upload", async (c) => c.text(String((await c.req.arrayBuffer()).byteLength)));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          await new Promise((r) => setTimeout(r, 50));
          sent++;
          controller.enqueue(new Uint8Array(1));
        },
      },
      { highWaterMark: 0 },
    );
    const res = await slow.request("/upload", { method: "POST", body, duplex: "half" } as RequestInit);
    expect(res.status).toBe(408);
    expect(sent).toBeLessThan(20);
  });
  it("refuses a declared length past the limit before the handler runs", async () => {
    const { body, read } = counted(1_000_000);
    const res = await post(body, { Authorization: "Bearer author", "Content-Length": "1000000" });
    expect(res.status).toBe(413);
    expect(read.bytes).toBe(0);
  });
});

describe("compression", () => {
  it.each([
    ["br, gzip", "br"],
    ["gzip, deflate", "gzip"],
    ["gzip;q=1, br;q=0.5", "gzip"],
    ["br;q=0", null],
    ["*", "br"],
    ["identity", null],
    [undefined, null],
  ])("Accept-Encoding %s → %s", (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });

  const app = new Hono();
  app.use("*", compressResponses());
  const html = `<!DOCTYPE html><p>${"learn ".repeat(2000)}</p>`;
  app.get("/page", (c) => c.html(html));
  // A stored file streamed with its length and its own Vary (a SCORM package's page, issue 15).
  app.get("/file", (c) =>
    c.body(html, 200, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": String(Buffer.byteLength(html)),
      Vary: "Cookie",
    }),
  );
  app.get("/events", (c) => c.body("data: x\n\n".repeat(500), 200, { "Content-Type": "text/event-stream" }));

  it("sends a document as brotli or gzip by Accept-Encoding, with Vary", async () => {
    const br = await app.request("/page", { headers: { "Accept-Encoding": "br" } });
    expect(br.headers.get("Content-Encoding")).toBe("br");
    expect(br.headers.get("Vary")).toContain("Accept-Encoding");
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(html);
    const gz = await app.request("/page", { headers: { "Accept-Encoding": "gzip" } });
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(html);
    const plain = await app.request("/page");
    expect(plain.headers.get("Content-Encoding")).toBeNull();
  });
  it("drops the uncompressed Content-Length of a file it compresses and keeps its Vary", async () => {
    const res = await app.request("/file", { headers: { "Accept-Encoding": "br" } });
    expect(res.headers.get("Content-Encoding")).toBe("br");
    expect(res.headers.get("Content-Length")).toBeNull();
    expect(res.headers.get("Vary")).toBe("Cookie, Accept-Encoding");
    expect(brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(html);
  });
  it("leaves server-sent events alone", async () => {
    const res = await app.request("/events", { headers: { "Accept-Encoding": "br" } });
    expect(res.headers.get("Content-Encoding")).toBeNull();
  });
});

describe("refusals in the user's language (issue 17 item 6)", () => {
  const lng = (value: string) => `lng=${encodeURIComponent(Buffer.from(JSON.stringify(value)).toString("base64"))}`;
  it.each([
    [{}, "en-US"],
    [{ acceptLanguage: "de-CH,de;q=0.9" }, "de"],
    [{ acceptLanguage: "ja" }, "ja"],
    [{ cookie: lng("ar"), acceptLanguage: "de" }, "ar"],
    [{ cookie: "lng=%", acceptLanguage: "fr" }, "fr"],
    [{ cookie: "lng=%E0%A4%A", acceptLanguage: "%%%;q=x" }, "en-US"],
    [{ cookie: lng("xx-YY"), acceptLanguage: "zh-TW" }, "zh-TW"],
  ])("%o → %s", (audience, locale) => {
    expect(refusalLocale(audience)).toBe(locale);
  });

  it("a page in the negotiated language, right-to-left for Arabic, with a way back and nothing of the request", async () => {
    const res = refusalResponse({ status: 414, code: "uriTooLong" }, { acceptLanguage: "de", accept: "text/html" });
    expect(res.status).toBe(414);
    expect(res.headers.get("Content-Language")).toBe("de");
    const html = await res.text();
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain("<h1>Adresse zu lang</h1>");
    expect(html).toContain('<a href="/learn">Zur Startseite</a>');
    const ar = await refusalResponse({ status: 400, code: "badRequest" }, { cookie: lng("ar") }).text();
    expect(ar).toContain('<html lang="ar" dir="rtl">');
    expect(ar).toContain("تعذّر فهم الطلب");
  });

  it("JSON for API clients, with the translated message and the code", async () => {
    const res = refusalResponse(
      { status: 403, code: "crossOrigin" },
      { accept: "application/json", acceptLanguage: "fr-FR" },
    );
    expect(await res.json()).toEqual({
      status: 403,
      title: "Requête refusée",
      errors: { "": [{ code: "crossOrigin", message: "Cette requête provenait d’un autre site et a été refusée." }] },
    });
  });

  it("a streamed body that breaks mid-way is a 400 in the user's language", async () => {
    const app = new Hono();
    app.use(
      "*",
      bodyLimit(() => 1000),
    );
    app.post("*", (c) => c.text("ok"));
    const broken = new ReadableStream({
      pull(controller) {
        controller.error(new Error("connection reset"));
      },
    });
    const res = await app.request("/x", {
      method: "POST",
      body: broken,
      duplex: "half",
      headers: { "Accept-Language": "es" },
    } as RequestInit);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("No se entendió la solicitud");
  });
});
