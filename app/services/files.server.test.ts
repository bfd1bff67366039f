import { describe, expect, it } from "vitest";
import { fileHeaders } from "./files.server";

/** An author-set media type never runs as the app's origin. */
describe("private files: inline only for types that run nothing", () => {
  it.each([
    "text/html",
    "image/svg+xml",
    "application/xhtml+xml",
    "text/xml",
    "application/javascript",
    "",
    "TEXT/HTML",
  ])("%j → an attachment, octet-stream, sandboxed", (type) => {
    const headers = fileHeaders(new Headers(type ? { "Content-Type": type, "Content-Length": "10" } : {}));
    expect(headers.get("content-disposition")).toBe("attachment");
    expect(headers.get("content-type")).toBe("application/octet-stream");
    expect(headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("content-length")).toBe(type ? "10" : null);
  });

  it.each(["application/pdf", "image/png", "video/mp4", "audio/mpeg", "text/plain; charset=utf-8"])(
    "%j → inline, as sent, with ranges passed through",
    (type) => {
      const headers = fileHeaders(
        new Headers({
          "Content-Type": type,
          "Accept-Ranges": "bytes",
          "Content-Range": "bytes 0-9/100",
          "Set-Cookie": "x=1",
        }),
      );
      expect(headers.get("content-type")).toBe(type);
      expect(headers.get("content-disposition")).toBeNull();
      expect(headers.get("accept-ranges")).toBe("bytes");
      expect(headers.get("content-range")).toBe("bytes 0-9/100");
      expect(headers.get("set-cookie")).toBeNull();
      expect(headers.get("x-content-type-options")).toBe("nosniff");
    },
  );
});
