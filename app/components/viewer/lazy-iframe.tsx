import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/common/i18n";
import { useHydrated } from "../use-hydrated";
import { ViewerIcon } from "./icons";
import { isSafeFrameSrc } from "./pdf-url";
import {
  DEFAULT_IFRAME_HEIGHT,
  DEFAULT_IFRAME_WIDTH,
  LAZY_IFRAME_OBSERVER_OPTIONS,
  shouldLoadFrame,
} from "./lazy-iframe-options";

export type LazyIframeProps = {
  /** http(s) or relative URL; anything else is not embedded. */
  src: string;
  /** Accessible name of the frame (required by WCAG 4.1.2). */
  title: string;
  /** Intrinsic size in CSS pixels: sets the aspect ratio (16:9 without) and the maximum width. */
  width?: number;
  height?: number;
  /** Permissions policy, e.g. "autoplay; fullscreen; picture-in-picture". */
  allow?: string;
  className?: string;
};

/**
 * Spec 2.6: an iframe loaded only when 10 % of it is within 100 px of the viewport. Without
 * JavaScript the server-rendered `<noscript>` holds a native `loading="lazy"` iframe; with
 * JavaScript a placeholder (with a link to open the content in a new tab) stands in until the
 * IntersectionObserver reports it visible. The box keeps its aspect ratio, so nothing shifts.
 */
export function LazyIframe({ src, title, width, height, allow, className }: LazyIframeProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  const hydrated = useHydrated();
  const safe = isSafeFrameSrc(src);

  useEffect(() => {
    if (!safe || visible) return;
    const element = ref.current;
    if (!element) return;
    if (typeof IntersectionObserver === "undefined") return; // shown directly (see `shown`)
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => shouldLoadFrame(entry))) {
          setVisible(true);
          observer.disconnect();
        }
      },
      { ...LAZY_IFRAME_OBSERVER_OPTIONS },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [safe, visible]);

  const w = width && width > 0 ? width : DEFAULT_IFRAME_WIDTH;
  const h = height && height > 0 ? height : DEFAULT_IFRAME_HEIGHT;
  const style = { aspectRatio: `${w} / ${h}`, maxInlineSize: width && width > 0 ? `${width}px` : undefined };
  const classes = className ? `lazy-iframe ${className}` : "lazy-iframe";

  if (!safe) {
    return (
      <div className={`${classes} lazy-iframe--blocked`} style={style}>
        <p className="lazy-iframe__placeholder">{t("viewer.iframe.unavailable")}</p>
      </div>
    );
  }

  const frame = (
    <iframe
      className="lazy-iframe__frame"
      src={src}
      title={title}
      allow={allow}
      // `allow` already grants fullscreen when it lists it; both would make Chrome warn.
      allowFullScreen={allow && /\bfullscreen\b/.test(allow) ? undefined : true}
      loading="lazy"
      referrerPolicy="strict-origin-when-cross-origin"
    />
  );

  // A browser without IntersectionObserver gets the frame as soon as JavaScript runs.
  const shown = visible || (hydrated && typeof IntersectionObserver === "undefined");
  return (
    <div ref={ref} className={classes} style={style}>
      {shown ? (
        frame
      ) : (
        <>
          <noscript>{frame}</noscript>
          <div className="lazy-iframe__placeholder">
            <a className="lazy-iframe__open" href={src} target="_blank" rel="noopener noreferrer">
              <ViewerIcon name="open" />
              <span>{t("viewer.iframe.open", { title })}</span>{" "}
              <span className="viewer-sr-only">{t("viewer.iframe.newTab")}</span>
            </a>
          </div>
        </>
      )}
    </div>
  );
}
