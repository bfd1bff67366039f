/**
 * The real PDF viewer. Only ever loaded through `import()` from `pdf-viewer.tsx`, so pdfjs-dist and
 * its worker stay out of the route's first-load JavaScript. Uses the legacy build of pdfjs-dist: the
 * modern build calls `Map.prototype.getOrInsertComputed` and other 2025+ built-ins unpolyfilled.
 */
import { useCallback, useEffect, useEffectEvent, useId, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "~/common/i18n";
import {
  GlobalWorkerOptions,
  RenderingCancelledException,
  TextLayer,
  getDocument,
  type PDFDocumentLoadingTask,
  type PDFDocumentProxy,
  type RenderTask,
} from "pdfjs-dist/legacy/build/pdf.mjs";
import workerUrl from "pdfjs-dist/legacy/build/pdf.worker.min.mjs?url";
import { ViewerIcon } from "./icons";
import { clampPage, nextZoom, pageStepForKey, zoomActionForKey, MAX_ZOOM, MIN_ZOOM } from "./keys";

GlobalWorkerOptions.workerSrc = workerUrl;

export type PdfViewerClientProps = {
  /** Already filtered by `safePdfUrl`. */
  url: string;
  title: string;
  initialPage?: number;
  onPageChange?(page: number): void;
  assetsBaseUrl?: string;
};

export type PdfErrorKey = "viewer.pdf.loadFailed" | "viewer.pdf.unauthorized" | "viewer.pdf.forbidden";

type LoadState = { kind: "loading" } | { kind: "ready" } | { kind: "error"; key: PdfErrorKey };

/** Spec 8: the message for an HTTP status of the PDF request. */
function errorKeyForStatus(status: number): PdfErrorKey {
  if (status === 401) return "viewer.pdf.unauthorized";
  if (status === 403) return "viewer.pdf.forbidden";
  return "viewer.pdf.loadFailed";
}

/** iOS Safari refuses canvases above about 16.7 million pixels. */
const MAX_CANVAS_PIXELS = 16_777_216;

function isCancelled(err: unknown): boolean {
  return (
    err instanceof RenderingCancelledException || (err instanceof Error && err.name === "RenderingCancelledException")
  );
}

export function PdfViewerClient({ url, title, initialPage, onPageChange, assetsBaseUrl }: PdfViewerClientProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const areaRef = useRef<HTMLDivElement>(null);
  const pageRef = useRef<HTMLDivElement>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [state, setState] = useState<LoadState>({ kind: "loading" });
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState("1");
  const [zoom, setZoom] = useState<"fit" | number>("fit");
  const [scale, setScale] = useState(1);
  const [areaWidth, setAreaWidth] = useState(0);
  const [rendering, setRendering] = useState(false);

  const reportPage = useEffectEvent((n: number) => onPageChange?.(n));
  const startPage = useEffectEvent(() => initialPage ?? 1);
  const reportedPage = useRef<number | null>(null);
  const total = doc?.numPages ?? 0;

  // Fetch the file ourselves (spec 8 needs the HTTP status), then hand the bytes to pdf.js.
  useEffect(() => {
    const controller = new AbortController();
    let task: PDFDocumentLoadingTask | null = null;
    (async () => {
      let data: Uint8Array;
      try {
        const response = await fetch(url, {
          credentials: "same-origin",
          signal: controller.signal,
          headers: { Accept: "application/pdf" },
        });
        if (!response.ok) {
          setState({ kind: "error", key: errorKeyForStatus(response.status) });
          return;
        }
        data = new Uint8Array(await response.arrayBuffer());
      } catch {
        if (!controller.signal.aborted) setState({ kind: "error", key: "viewer.pdf.loadFailed" });
        return;
      }
      if (controller.signal.aborted) return;
      task = getDocument({
        data,
        // The page CSP has no 'unsafe-eval'.
        isEvalSupported: false,
        enableXfa: false,
        ...(assetsBaseUrl
          ? {
              cMapUrl: `${assetsBaseUrl}cmaps/`,
              standardFontDataUrl: `${assetsBaseUrl}standard_fonts/`,
              wasmUrl: `${assetsBaseUrl}wasm/`,
              iccUrl: `${assetsBaseUrl}iccs/`,
            }
          : {}),
      });
      try {
        const pdf = await task.promise;
        if (controller.signal.aborted) return;
        const start = clampPage(startPage(), pdf.numPages);
        reportedPage.current = start;
        setPage(start);
        setDraft(String(start));
        setDoc(pdf);
        setState({ kind: "ready" });
      } catch {
        if (!controller.signal.aborted) setState({ kind: "error", key: "viewer.pdf.loadFailed" });
      }
    })();
    return () => {
      controller.abort();
      void task?.destroy();
    };
  }, [url, assetsBaseUrl]);

  // Fit-to-width follows the available width.
  useEffect(() => {
    const area = areaRef.current;
    if (!area || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver((entries) => {
      const width = Math.floor(entries[0]?.contentRect.width ?? 0);
      setAreaWidth((previous) => (Math.abs(previous - width) > 1 ? width : previous));
    });
    observer.observe(area);
    return () => observer.disconnect();
  }, [state.kind]);

  // Render the current page into a fresh canvas and swap it in when done (no blank flash).
  useEffect(() => {
    const holder = pageRef.current;
    if (!doc || !holder || (zoom === "fit" && areaWidth === 0)) return;
    let cancelled = false;
    let renderTask: RenderTask | null = null;
    let textLayer: TextLayer | null = null;
    setRendering(true);
    (async () => {
      try {
        const pdfPage = await doc.getPage(page);
        if (cancelled) return;
        const natural = pdfPage.getViewport({ scale: 1 });
        const wanted = zoom === "fit" ? (areaWidth - 1) / natural.width : zoom;
        const nextScale = Math.min(MAX_ZOOM, Math.max(0.1, wanted));
        const viewport = pdfPage.getViewport({ scale: nextScale });
        const cssWidth = Math.floor(viewport.width);
        const cssHeight = Math.floor(viewport.height);
        const ratio = Math.min(
          window.devicePixelRatio || 1,
          Math.sqrt(MAX_CANVAS_PIXELS / Math.max(1, cssWidth * cssHeight)),
        );

        const canvas = document.createElement("canvas");
        canvas.className = "pdf-viewer__canvas";
        canvas.width = Math.max(1, Math.floor(viewport.width * ratio));
        canvas.height = Math.max(1, Math.floor(viewport.height * ratio));
        canvas.setAttribute("aria-hidden", "true");
        renderTask = pdfPage.render({
          canvas,
          viewport,
          transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined,
        });
        await renderTask.promise;
        if (cancelled) return;

        // Invisible, selectable text over the canvas: screen readers and find-in-page read it.
        const text = document.createElement("div");
        text.className = "pdf-viewer__text";
        textLayer = new TextLayer({ textContentSource: pdfPage.streamTextContent(), container: text, viewport });
        try {
          await textLayer.render();
        } catch (err) {
          if (cancelled || isCancelled(err)) return;
          text.replaceChildren(); // a page without usable text still shows
        }
        if (cancelled) return;

        holder.style.inlineSize = `${cssWidth}px`;
        holder.style.blockSize = `${cssHeight}px`;
        holder.style.setProperty("--total-scale-factor", String(viewport.scale * viewport.userUnit));
        holder.style.setProperty("--scale-round-x", "1px");
        holder.style.setProperty("--scale-round-y", "1px");
        holder.replaceChildren(canvas, text);
        setScale(nextScale);
        setRendering(false);
        pdfPage.cleanup();
      } catch (err) {
        if (cancelled || isCancelled(err)) return;
        setRendering(false);
        setState({ kind: "error", key: "viewer.pdf.loadFailed" });
      }
    })();
    return () => {
      cancelled = true;
      renderTask?.cancel();
      textLayer?.cancel();
    };
  }, [doc, page, zoom, areaWidth]);

  // Report page changes (not the initial page) so the caller can save the position for resume.
  useEffect(() => {
    if (!doc || reportedPage.current === page) return;
    reportedPage.current = page;
    reportPage(page);
  }, [doc, page]);

  const goTo = useCallback(
    (target: number) => {
      if (!total) return;
      const next = clampPage(target, total, page);
      setDraft(String(next));
      if (next === page) return;
      setPage(next);
      const area = areaRef.current;
      if (area) area.scrollTop = 0;
    },
    [page, total],
  );

  const zoomBy = useCallback(
    (action: "in" | "out" | "fit") => {
      if (action === "fit") setZoom("fit");
      else setZoom(nextZoom(scale, action));
    },
    [scale],
  );

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || !doc) return;
    const target = event.target as HTMLElement;
    if (target.closest("input, textarea, select, [contenteditable='true']")) return;
    const rtl = getComputedStyle(event.currentTarget).direction === "rtl";
    const step = pageStepForKey(event.key, rtl);
    if (step !== 0) {
      const area = areaRef.current;
      // Zoomed wider than the view: arrows scroll sideways as usual.
      if (event.key.startsWith("Arrow") && target === area && area.scrollWidth > area.clientWidth + 1) return;
      event.preventDefault();
      goTo(page + step);
      return;
    }
    const action = zoomActionForKey(event.key);
    if (action) {
      event.preventDefault();
      zoomBy(action);
    }
  }

  const percent = new Intl.NumberFormat(i18n.language || undefined, {
    style: "percent",
    maximumFractionDigits: 0,
  }).format(scale);
  const atFirst = page <= 1;
  const atLast = page >= total;
  const ready = state.kind === "ready" && doc !== null;

  return (
    <div className="pdf-viewer" role="group" aria-label={title} onKeyDown={onKeyDown}>
      {ready ? (
        <div className="pdf-viewer__toolbar" role="group" aria-label={t("viewer.pdf.controls")}>
          <div className="pdf-viewer__nav">
            <button
              type="button"
              className="viewer-button"
              aria-disabled={atFirst}
              title={t("viewer.pdf.previousPage")}
              onClick={() => !atFirst && goTo(page - 1)}
            >
              <ViewerIcon name="previous" />
              <span className="viewer-sr-only">{t("viewer.pdf.previousPage")}</span>
            </button>
            <form
              className="pdf-viewer__page-form"
              onSubmit={(event) => {
                event.preventDefault();
                goTo(Number.parseInt(draft, 10));
              }}
            >
              <label htmlFor={`${id}-page`}>{t("viewer.pdf.pageLabel")}</label>
              <input
                id={`${id}-page`}
                className="pdf-viewer__page-input"
                type="text"
                inputMode="numeric"
                autoComplete="off"
                enterKeyHint="go"
                size={Math.max(2, String(total).length)}
                value={draft}
                aria-describedby={`${id}-total`}
                onChange={(event) => setDraft(event.currentTarget.value.replace(/[^\d]/g, ""))}
                onBlur={() => goTo(Number.parseInt(draft, 10))}
              />
              <span id={`${id}-total`}>{t("viewer.pdf.ofTotal", { total })}</span>
            </form>
            <button
              type="button"
              className="viewer-button"
              aria-disabled={atLast}
              title={t("viewer.pdf.nextPage")}
              onClick={() => !atLast && goTo(page + 1)}
            >
              <ViewerIcon name="next" />
              <span className="viewer-sr-only">{t("viewer.pdf.nextPage")}</span>
            </button>
          </div>
          <div className="pdf-viewer__zoom">
            <button
              type="button"
              className="viewer-button"
              aria-disabled={scale <= MIN_ZOOM}
              title={t("viewer.pdf.zoomOut")}
              onClick={() => scale > MIN_ZOOM && zoomBy("out")}
            >
              <ViewerIcon name="zoom-out" />
              <span className="viewer-sr-only">{t("viewer.pdf.zoomOut")}</span>
            </button>
            <output className="pdf-viewer__zoom-level" aria-live="polite">
              <span aria-hidden="true">{percent}</span>
              <span className="viewer-sr-only">{t("viewer.pdf.zoomLevel", { percent })}</span>
            </output>
            <button
              type="button"
              className="viewer-button"
              aria-disabled={scale >= MAX_ZOOM}
              title={t("viewer.pdf.zoomIn")}
              onClick={() => scale < MAX_ZOOM && zoomBy("in")}
            >
              <ViewerIcon name="zoom-in" />
              <span className="viewer-sr-only">{t("viewer.pdf.zoomIn")}</span>
            </button>
            <button
              type="button"
              className="viewer-button"
              aria-pressed={zoom === "fit"}
              title={t("viewer.pdf.fitWidth")}
              onClick={() => zoomBy("fit")}
            >
              <ViewerIcon name="fit-width" />
              <span className="viewer-sr-only">{t("viewer.pdf.fitWidth")}</span>
            </button>
          </div>
        </div>
      ) : null}
      <p className="viewer-sr-only" role="status">
        {ready ? t("viewer.pdf.pageStatus", { page, total }) : ""}
      </p>
      {state.kind === "error" ? (
        <div className="pdf-viewer__area pdf-viewer__area--message">
          <p className="pdf-viewer__message pdf-viewer__message--error" role="alert">
            {t(state.key)}
          </p>
        </div>
      ) : (
        <div
          ref={areaRef}
          className="pdf-viewer__area"
          tabIndex={0}
          role="group"
          aria-label={ready ? t("viewer.pdf.pageStatus", { page, total }) : t("viewer.pdf.loading")}
          aria-busy={!ready || rendering}
        >
          {ready ? null : (
            <p className="pdf-viewer__message" role="status">
              {t("viewer.pdf.loading")}
            </p>
          )}
          {/* Filled imperatively with the rendered canvas and text layer. */}
          <div ref={pageRef} className="pdf-viewer__page" hidden={!ready} />
        </div>
      )}
      {state.kind === "error" && state.key !== "viewer.pdf.loadFailed" ? null : (
        <p className="pdf-viewer__download">
          <a href={url} download>
            <ViewerIcon name="download" />
            {t("viewer.pdf.downloadNamed", { title })}
          </a>
        </p>
      )}
    </div>
  );
}
