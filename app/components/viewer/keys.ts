/**
 * Keyboard helpers shared by the PDF viewer and the gallery. Pure, unit-tested.
 *
 * Arrow keys follow the visual layout: in right-to-left pages "previous" sits on the right, so
 * ArrowLeft moves to the NEXT item and ArrowRight to the previous one.
 */
export function stepForArrow(key: string, rtl: boolean): -1 | 0 | 1 {
  if (key === "ArrowRight") return rtl ? -1 : 1;
  if (key === "ArrowLeft") return rtl ? 1 : -1;
  return 0;
}

/** PageUp/PageDown and (mirrored) ArrowLeft/ArrowRight for the PDF viewer. */
export function pageStepForKey(key: string, rtl: boolean): -1 | 0 | 1 {
  if (key === "PageDown") return 1;
  if (key === "PageUp") return -1;
  return stepForArrow(key, rtl);
}

/** `+`/`=` zoom in, `-`/`_` zoom out, `0` fit to width. */
export function zoomActionForKey(key: string): "in" | "out" | "fit" | null {
  if (key === "+" || key === "=") return "in";
  if (key === "-" || key === "_") return "out";
  if (key === "0") return "fit";
  return null;
}

/** Zoom steps (1 = 100 %, i.e. PDF points at CSS pixel size). */
const ZOOM_STEPS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const;
export const MIN_ZOOM = ZOOM_STEPS[0];
export const MAX_ZOOM = ZOOM_STEPS[ZOOM_STEPS.length - 1];

/** The next zoom step above (`in`) or below (`out`) the current scale, clamped. */
export function nextZoom(current: number, direction: "in" | "out"): number {
  const epsilon = 0.001;
  if (direction === "in") return ZOOM_STEPS.find((s) => s > current + epsilon) ?? MAX_ZOOM;
  return [...ZOOM_STEPS].reverse().find((s) => s < current - epsilon) ?? MIN_ZOOM;
}

/** Clamp a page number into 1..total; non-numbers give the fallback. */
export function clampPage(page: number, total: number, fallback = 1): number {
  if (!Number.isFinite(page)) return Math.min(Math.max(1, fallback), Math.max(1, total));
  return Math.min(Math.max(1, Math.trunc(page)), Math.max(1, total));
}

/** Wrap-around index for the gallery. */
export function wrapIndex(index: number, total: number): number {
  if (total <= 0) return 0;
  return ((index % total) + total) % total;
}
