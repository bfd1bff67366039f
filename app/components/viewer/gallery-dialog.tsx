import { useEffect, useRef, type KeyboardEvent } from "react";
import { useTranslation } from "~/common/i18n";
import { ViewerIcon } from "./icons";
import { stepForArrow, wrapIndex } from "./keys";

export type GalleryImage = {
  /** Image shown in the list (and in the dialog unless `full` is given). */
  src: string;
  /** Text alternative; an empty string marks a decorative image. */
  alt: string;
  /** Optional larger version for the link target and the dialog. */
  full?: string;
};

export type Opened = { images: GalleryImage[]; index: number; opener: HTMLElement | null };

/**
 * The fullscreen `<dialog>` shared by `Gallery` and `GalleryFromHtml` (loaded when first opened: it is
 * not first-load JavaScript): previous, next and close buttons, ArrowLeft/ArrowRight (mirrored in
 * right-to-left pages), Home/End, Escape (native), and focus back on the element that opened it.
 */
export default function GalleryDialog({
  opened,
  onMove,
  onClosed,
}: {
  opened: Opened;
  onMove(index: number): void;
  onClosed(): void;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const { images, index, opener } = opened;
  const total = images.length;
  const image = images[index];

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) {
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    }
    closeRef.current?.focus();
    // Unmounted while open (route change): just close, the opener may be gone too.
    return () => {
      if (dialog.open) dialog.close();
    };
  }, []);

  const move = (step: number) => onMove(wrapIndex(index + step, total));

  function close() {
    ref.current?.close();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      onMove(event.key === "Home" ? 0 : total - 1);
      return;
    }
    const rtl = getComputedStyle(event.currentTarget).direction === "rtl";
    const step = stepForArrow(event.key, rtl);
    if (step !== 0) {
      event.preventDefault();
      move(step);
    }
  }

  return (
    <dialog
      ref={ref}
      className="gallery-dialog"
      aria-label={t("viewer.gallery.dialogLabel")}
      onKeyDown={onKeyDown}
      onClose={() => {
        onClosed();
        if (opener?.isConnected) opener.focus();
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its content) closes it.
        if (event.target === event.currentTarget) close();
      }}
    >
      <div className="gallery-dialog__bar">
        <p className="gallery-dialog__count" aria-live="polite">
          {t("viewer.gallery.position", { index: index + 1, total })}
        </p>
        <button
          ref={closeRef}
          type="button"
          className="viewer-button gallery-dialog__close"
          title={t("viewer.gallery.close")}
          onClick={close}
        >
          <ViewerIcon name="close" />
          <span className="viewer-sr-only">{t("viewer.gallery.close")}</span>
        </button>
      </div>
      <figure className="gallery-dialog__figure">
        <img className="gallery-dialog__image" src={image.full ?? image.src} alt={image.alt} decoding="async" />
        {/* The caption repeats the alt text for sighted users; screen readers already get it from the image. */}
        {image.alt ? (
          <figcaption className="gallery-dialog__caption" aria-hidden="true">
            {image.alt}
          </figcaption>
        ) : null}
      </figure>
      {total > 1 ? (
        <>
          <button
            type="button"
            className="viewer-button gallery-dialog__nav gallery-dialog__nav--previous"
            title={t("viewer.gallery.previous")}
            onClick={() => move(-1)}
          >
            <ViewerIcon name="previous" />
            <span className="viewer-sr-only">{t("viewer.gallery.previous")}</span>
          </button>
          <button
            type="button"
            className="viewer-button gallery-dialog__nav gallery-dialog__nav--next"
            title={t("viewer.gallery.next")}
            onClick={() => move(1)}
          >
            <ViewerIcon name="next" />
            <span className="viewer-sr-only">{t("viewer.gallery.next")}</span>
          </button>
        </>
      ) : null}
    </dialog>
  );
}
