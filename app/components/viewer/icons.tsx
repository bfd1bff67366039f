/** Small inline icons for the viewer controls. Decorative: the buttons carry the accessible name. */
type IconName = "previous" | "next" | "zoom-in" | "zoom-out" | "fit-width" | "download" | "close" | "open";

const PATHS: Record<IconName, string> = {
  previous: "M15.4 7.4 14 6l-6 6 6 6 1.4-1.4L10.8 12z",
  next: "M8.6 16.6 10 18l6-6-6-6-1.4 1.4 4.6 4.6z",
  "zoom-in": "M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z",
  "zoom-out": "M5 11h14v2H5z",
  "fit-width":
    "M3 5h2v14H3zm16 0h2v14h-2zM7 11h3.2L8.6 9.4 10 8l4 4-4 4-1.4-1.4 1.6-1.6H7zm10 2h-3.2l1.6 1.6L14 16l-4-4 4-4 1.4 1.4-1.6 1.6H17z",
  download: "M11 4h2v8.2l2.6-2.6L17 11l-5 5-5-5 1.4-1.4 2.6 2.6zM5 18h14v2H5z",
  close: "M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6l5.6-5.6L5 6.4z",
  open: "M14 3h7v7h-2V6.4l-9.3 9.3-1.4-1.4L17.6 5H14zM5 5h6v2H5v12h12v-6h2v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2z",
};

/** Icons whose direction means "back"/"forward" and therefore mirror in right-to-left pages. */
const DIRECTIONAL = new Set<IconName>(["previous", "next"]);

export function ViewerIcon({ name }: { name: IconName }) {
  return (
    <svg
      className={`viewer-icon${DIRECTIONAL.has(name) ? " viewer-icon--directional" : ""}`}
      viewBox="0 0 24 24"
      width="20"
      height="20"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
