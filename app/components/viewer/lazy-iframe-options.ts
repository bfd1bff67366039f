/** Spec 2.6: lazy iframes are loaded at 10 % visibility with a 100 px margin. */
export const LAZY_IFRAME_THRESHOLD = 0.1;
export const LAZY_IFRAME_ROOT_MARGIN = "100px";
export const LAZY_IFRAME_OBSERVER_OPTIONS = Object.freeze({
  threshold: LAZY_IFRAME_THRESHOLD,
  rootMargin: LAZY_IFRAME_ROOT_MARGIN,
});

/** Default aspect ratio (width / height) when no size is given. */
export const DEFAULT_IFRAME_WIDTH = 16;
export const DEFAULT_IFRAME_HEIGHT = 9;

type EntryLike = {
  isIntersecting: boolean;
  intersectionRatio: number;
  intersectionRect: { height: number };
  rootBounds: { height: number } | null;
};

/**
 * Whether an IntersectionObserver entry means "load now": at least 10 % of the frame is within the
 * (100 px enlarged) viewport. A frame much taller than the viewport can never reach 10 % of its own
 * area, so it also loads once it covers 10 % of the viewport's height.
 */
export function shouldLoadFrame(entry: EntryLike, threshold = LAZY_IFRAME_THRESHOLD): boolean {
  if (!entry.isIntersecting) return false;
  if (entry.intersectionRatio >= threshold - 1e-6) return true;
  const rootHeight = entry.rootBounds?.height;
  return rootHeight !== undefined && rootHeight > 0 && entry.intersectionRect.height >= rootHeight * threshold;
}
