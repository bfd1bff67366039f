import { useEffect, useState, type ComponentType } from "react";
import { useTranslation } from "~/common/i18n";
import { NEUTRAL_ORIGIN, safePdfUrl } from "./pdf-url";
import type { PdfViewerClientProps } from "./pdf-viewer.client";

export type PdfViewerProps = {
  /** The PDF's URL; filtered through `safePdfUrl` (spec 5) before anything loads it. */
  url: string;
  /** Title of the document: names the viewer region and the download link. */
  title: string;
  /** 1-based page to open (resume); clamped to the document. */
  initialPage?: number;
  /** Called with the 1-based page whenever the learner moves to another page (not for the initial page). */
  onPageChange?(page: number): void;
  /** Storage host whose URLs are kept absolute: `files.example.com` (HTTPS) or a full origin. */
  allowedStorageHost?: string;
  /** Our origin; only needed when absolute same-origin URLs must be recognised (the result is the same). */
  origin?: string;
  /**
   * Optional base URL (ending in `/`) where `node_modules/pdfjs-dist/{cmaps,standard_fonts,wasm,iccs}/`
   * are served, e.g. `/learn/pdfjs/`. Without it PDFs with CJK fonts without embedded CMaps, JPEG 2000 or
   * JBIG2 images may render incompletely.
   */
  assetsBaseUrl?: string;
};

type ClientComponent = ComponentType<PdfViewerClientProps>;

// One module promise per page load: remounting (next activity) does not import again.
let clientModule: Promise<ClientComponent> | null = null;
function loadClient(): Promise<ClientComponent> {
  clientModule ??= import("./pdf-viewer.client").then((m) => m.PdfViewerClient);
  clientModule.catch(() => {
    clientModule = null; // allow a retry on the next mount
  });
  return clientModule;
}

/**
 * PDF viewer (spec 2.6, 5, 8). Server-rendered and without JavaScript: the browser's own PDF viewer
 * (`<object>`, inside `<noscript>` so it is not downloaded twice when JavaScript runs) with a download
 * link inside and below. After hydration it imports `pdf-viewer.client` (pdfjs-dist, a separate chunk)
 * and renders pages to a canvas.
 */
export function PdfViewer({
  url,
  title,
  initialPage,
  onPageChange,
  allowedStorageHost,
  origin,
  assetsBaseUrl,
}: PdfViewerProps) {
  const { t } = useTranslation();
  const safeUrl = safePdfUrl(url, origin ?? NEUTRAL_ORIGIN, allowedStorageHost);
  const [Client, setClient] = useState<ClientComponent | null>(null);
  const [chunkFailed, setChunkFailed] = useState(false);

  useEffect(() => {
    if (!safeUrl) return;
    let active = true;
    loadClient().then(
      (component) => {
        if (active) setClient(() => component);
      },
      () => {
        if (active) setChunkFailed(true);
      },
    );
    return () => {
      active = false;
    };
  }, [safeUrl]);

  if (!safeUrl) {
    return (
      <div className="pdf-viewer pdf-viewer--blocked" role="group" aria-label={title}>
        <p className="pdf-viewer__message pdf-viewer__message--error" role="alert">
          {t("viewer.pdf.loadFailed")}
        </p>
      </div>
    );
  }

  if (Client) {
    return (
      <Client
        // A new file is a new viewer: its state starts over (loading, page 1).
        key={safeUrl}
        url={safeUrl}
        title={title}
        initialPage={initialPage}
        onPageChange={onPageChange}
        assetsBaseUrl={assetsBaseUrl}
      />
    );
  }

  const object = (
    // The browser's own viewer opens at a page given as the fragment `#page=N` (PDF open parameters).
    <object
      className="pdf-viewer__object"
      data={initialPage && initialPage > 1 ? `${safeUrl}#page=${initialPage}` : safeUrl}
      type="application/pdf"
      title={title}
    >
      <p className="pdf-viewer__message">
        {t("viewer.pdf.noInlineViewer")}{" "}
        <a href={safeUrl} download>
          {t("viewer.pdf.download")}
        </a>
      </p>
    </object>
  );

  return (
    <div className="pdf-viewer pdf-viewer--fallback" role="group" aria-label={title}>
      {chunkFailed ? (
        // The viewer chunk did not load (offline, new deployment): fall back to the browser's viewer.
        object
      ) : (
        <>
          <noscript>{object}</noscript>
          <p className="pdf-viewer__message pdf-viewer__pending" role="status">
            {t("viewer.pdf.loading")}
          </p>
        </>
      )}
      <p className="pdf-viewer__download">
        <a href={safeUrl} download>
          {t("viewer.pdf.downloadNamed", { title })}
        </a>
      </p>
    </div>
  );
}
