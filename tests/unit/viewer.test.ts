import { describe, expect, it } from "vitest";
import { NEUTRAL_ORIGIN, isSafeFrameSrc, safePdfUrl } from "~/components/viewer/pdf-url";
import {
  DEFAULT_IFRAME_HEIGHT,
  DEFAULT_IFRAME_WIDTH,
  LAZY_IFRAME_OBSERVER_OPTIONS,
  LAZY_IFRAME_ROOT_MARGIN,
  LAZY_IFRAME_THRESHOLD,
  shouldLoadFrame,
} from "~/components/viewer/lazy-iframe-options";
import {
  clampPage,
  nextZoom,
  pageStepForKey,
  stepForArrow,
  wrapIndex,
  zoomActionForKey,
  MAX_ZOOM,
  MIN_ZOOM,
} from "~/components/viewer/keys";

const ORIGIN = "https://learn.example.com";
const STORAGE = "files.example.net";

describe("safePdfUrl (spec 5)", () => {
  it("keeps relative URLs relative", () => {
    expect(safePdfUrl("/learn/files/a.pdf?v=2", ORIGIN)).toBe("/learn/files/a.pdf?v=2");
    expect(safePdfUrl("files/a.pdf", ORIGIN)).toBe("/files/a.pdf");
  });

  it("turns an absolute same-origin URL into a relative one", () => {
    expect(safePdfUrl("https://learn.example.com/learn/files/a.pdf?token=1", ORIGIN)).toBe(
      "/learn/files/a.pdf?token=1",
    );
    expect(safePdfUrl("HTTPS://LEARN.EXAMPLE.COM/a.pdf", ORIGIN)).toBe("/a.pdf");
  });

  it("keeps the allowed storage host absolute", () => {
    expect(safePdfUrl("https://files.example.net/bucket/a.pdf?X-Sig=abc", ORIGIN, STORAGE)).toBe(
      "https://files.example.net/bucket/a.pdf?X-Sig=abc",
    );
    // user info is dropped
    expect(safePdfUrl("https://user:pw@files.example.net/a.pdf", ORIGIN, STORAGE)).toBe(
      "https://files.example.net/a.pdf",
    );
    // a full origin (also plain HTTP, e.g. local MinIO) and a host with port
    expect(safePdfUrl("http://localhost:9000/b/a.pdf", ORIGIN, "http://localhost:9000")).toBe(
      "http://localhost:9000/b/a.pdf",
    );
    expect(safePdfUrl("https://files.example.net:8443/a.pdf", ORIGIN, "files.example.net:8443")).toBe(
      "https://files.example.net:8443/a.pdf",
    );
  });

  it("does not treat look-alikes of the storage host as the storage host", () => {
    expect(safePdfUrl("https://files.example.net.evil.com/a.pdf", ORIGIN, STORAGE)).toBe("/a.pdf");
    expect(safePdfUrl("https://evil.com/files.example.net/a.pdf", ORIGIN, STORAGE)).toBe("/files.example.net/a.pdf");
    // bare host names are HTTPS only
    expect(safePdfUrl("http://files.example.net/a.pdf", ORIGIN, STORAGE)).toBe("/a.pdf");
  });

  it("rewrites a foreign host to the relative path on our origin", () => {
    expect(safePdfUrl("https://evil.com/learn/files/a.pdf?x=1#page=3", ORIGIN)).toBe("/learn/files/a.pdf?x=1");
    expect(safePdfUrl("http://learn.example.com/a.pdf", ORIGIN)).toBe("/a.pdf"); // other scheme = other origin
    expect(safePdfUrl("https://files.example.net/a.pdf", ORIGIN)).toBe("/a.pdf"); // no storage host configured
  });

  it("rewrites protocol-relative and backslash tricks to a relative path", () => {
    expect(safePdfUrl("//evil.com/a.pdf", ORIGIN)).toBe("/a.pdf");
    expect(safePdfUrl("/\\evil.com/a.pdf", ORIGIN)).toBe("/a.pdf");
    expect(safePdfUrl("\\\\evil.com/a.pdf", ORIGIN)).toBe("/a.pdf");
  });

  it("never returns a protocol-relative path", () => {
    expect(safePdfUrl("https://evil.com//evil2.com/a.pdf", ORIGIN)).toBe("/evil2.com/a.pdf");
    expect(safePdfUrl("https://learn.example.com///evil2.com/a.pdf", ORIGIN)).toBe("/evil2.com/a.pdf");
  });

  it("blocks javascript:, data: and other schemes", () => {
    expect(safePdfUrl("javascript:alert(1)", ORIGIN)).toBeNull();
    expect(safePdfUrl("  JavaScript:alert(1)", ORIGIN)).toBeNull();
    expect(safePdfUrl("java\tscript:alert(1)", ORIGIN)).toBeNull();
    expect(safePdfUrl("data:application/pdf;base64,JVBERi0=", ORIGIN)).toBeNull();
    expect(safePdfUrl("blob:https://learn.example.com/123", ORIGIN)).toBeNull();
    expect(safePdfUrl("file:///etc/passwd", ORIGIN)).toBeNull();
    expect(safePdfUrl("vbscript:msgbox", ORIGIN)).toBeNull();
  });

  it("returns null for garbage", () => {
    expect(safePdfUrl("", ORIGIN)).toBeNull();
    expect(safePdfUrl("   ", ORIGIN)).toBeNull();
    expect(safePdfUrl("https://", ORIGIN)).toBeNull();
    expect(safePdfUrl("http://exa mple.com/a.pdf", ORIGIN)).toBeNull();
    expect(safePdfUrl("http://[::1/a.pdf", ORIGIN)).toBeNull();
    expect(safePdfUrl(undefined as unknown as string, ORIGIN)).toBeNull();
    expect(safePdfUrl("/a.pdf", "not an origin")).toBeNull();
  });

  it("gives the same result whatever origin is passed, except for same-origin detection being irrelevant", () => {
    for (const url of [
      "/a.pdf?x=1",
      "https://learn.example.com/a.pdf?x=1",
      "https://evil.com/a.pdf?x=1",
      "//evil.com/a.pdf?x=1",
    ]) {
      expect(safePdfUrl(url, NEUTRAL_ORIGIN)).toBe(safePdfUrl(url, ORIGIN));
    }
  });
});

describe("isSafeFrameSrc", () => {
  it("allows http(s) and relative URLs only", () => {
    expect(isSafeFrameSrc("https://player.vimeo.com/video/1")).toBe(true);
    expect(isSafeFrameSrc("/learn/scorm/1/index.html")).toBe(true);
    expect(isSafeFrameSrc("javascript:alert(1)")).toBe(false);
    expect(isSafeFrameSrc("data:text/html,<script>1</script>")).toBe(false);
    expect(isSafeFrameSrc("")).toBe(false);
  });
});

describe("lazy iframe observer (spec 2.6)", () => {
  it("loads at 10 % visibility with a 100 px margin", () => {
    expect(LAZY_IFRAME_THRESHOLD).toBe(0.1);
    expect(LAZY_IFRAME_ROOT_MARGIN).toBe("100px");
    expect(LAZY_IFRAME_OBSERVER_OPTIONS).toEqual({ threshold: 0.1, rootMargin: "100px" });
    expect(Object.isFrozen(LAZY_IFRAME_OBSERVER_OPTIONS)).toBe(true);
    expect(DEFAULT_IFRAME_WIDTH / DEFAULT_IFRAME_HEIGHT).toBeCloseTo(16 / 9);
  });

  it("decides from an observer entry", () => {
    const entry = (
      isIntersecting: boolean,
      intersectionRatio: number,
      height = 0,
      rootHeight: number | null = 800,
    ) => ({
      isIntersecting,
      intersectionRatio,
      intersectionRect: { height },
      rootBounds: rootHeight === null ? null : { height: rootHeight },
    });
    expect(shouldLoadFrame(entry(false, 0))).toBe(false);
    expect(shouldLoadFrame(entry(true, 0.05, 20))).toBe(false);
    expect(shouldLoadFrame(entry(true, 0.1, 40))).toBe(true);
    expect(shouldLoadFrame(entry(true, 0.6, 300))).toBe(true);
    // a frame far taller than the viewport: 10 % of the viewport's height is enough
    expect(shouldLoadFrame(entry(true, 0.02, 90, 800))).toBe(true);
    expect(shouldLoadFrame(entry(true, 0.02, 90, null))).toBe(false);
  });
});

describe("viewer keyboard helpers", () => {
  it("mirrors arrow keys in right-to-left pages", () => {
    expect(stepForArrow("ArrowRight", false)).toBe(1);
    expect(stepForArrow("ArrowLeft", false)).toBe(-1);
    expect(stepForArrow("ArrowLeft", true)).toBe(1); // RTL: left goes to the NEXT image
    expect(stepForArrow("ArrowRight", true)).toBe(-1);
    expect(stepForArrow("Enter", true)).toBe(0);
  });

  it("pages with PageUp/PageDown in either direction", () => {
    expect(pageStepForKey("PageDown", true)).toBe(1);
    expect(pageStepForKey("PageUp", false)).toBe(-1);
    expect(pageStepForKey("ArrowRight", false)).toBe(1);
  });

  it("zooms with + and - in fixed steps", () => {
    expect(zoomActionForKey("+")).toBe("in");
    expect(zoomActionForKey("=")).toBe("in");
    expect(zoomActionForKey("-")).toBe("out");
    expect(zoomActionForKey("0")).toBe("fit");
    expect(zoomActionForKey("a")).toBeNull();
    expect(nextZoom(1, "in")).toBe(1.25);
    expect(nextZoom(1.1, "in")).toBe(1.25);
    expect(nextZoom(1.1, "out")).toBe(1);
    expect(nextZoom(MAX_ZOOM, "in")).toBe(MAX_ZOOM);
    expect(nextZoom(MIN_ZOOM, "out")).toBe(MIN_ZOOM);
  });

  it("clamps pages and wraps gallery indexes", () => {
    expect(clampPage(0, 10)).toBe(1);
    expect(clampPage(12, 10)).toBe(10);
    expect(clampPage(Number.NaN, 10, 4)).toBe(4);
    expect(clampPage(3.7, 10)).toBe(3);
    expect(wrapIndex(-1, 5)).toBe(4);
    expect(wrapIndex(5, 5)).toBe(0);
    expect(wrapIndex(3, 0)).toBe(0);
  });
});
