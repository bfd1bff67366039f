import {
  useCallback,
  useEffect,
  useEffectEvent,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from "react";
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

type Opened = { images: GalleryImage[]; index: number; opener: HTMLElement | null };

/** Whether a click should stay a plain link click (new tab, download, middle button …). */
function isModifiedClick(event: MouseEvent): boolean {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
}

/**
 * The fullscreen `<dialog>` shared by `Gallery` and `GalleryFromHtml`: previous, next and close
 * buttons, ArrowLeft/ArrowRight (mirrored in right-to-left pages), Home/End, Escape (native), and
 * focus back on the element that opened it.
 */
function useGalleryDialog() {
  const [opened, setOpened] = useState<Opened | null>(null);
  const open = useCallback((images: GalleryImage[], index: number, opener: HTMLElement | null) => {
    if (images.length === 0) return;
    setOpened({ images, index: wrapIndex(index, images.length), opener });
  }, []);
  const dialog = opened ? (
    <GalleryDialog
      opened={opened}
      onMove={(index) => setOpened({ ...opened, index })}
      onClosed={() => setOpened(null)}
    />
  ) : null;
  return { open, dialog };
}

function GalleryDialog({
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

export type GalleryProps = {
  images: GalleryImage[];
  /** Rendered above the thumbnails (e.g. a heading). */
  children?: ReactNode;
  /** Accessible name of the list of images. */
  label?: string;
  className?: string;
};

/**
 * Image gallery. Without JavaScript: a list of thumbnails, each a plain link to the full image. With
 * JavaScript a click opens the fullscreen dialog at that image.
 */
export function Gallery({ images, children, label, className }: GalleryProps) {
  const { t } = useTranslation();
  const { open, dialog } = useGalleryDialog();
  const total = images.length;
  return (
    <div className={className ? `gallery ${className}` : "gallery"}>
      {children}
      <ul className="gallery__list" aria-label={label}>
        {images.map((image, index) => (
          <li key={`${index}-${image.src}`} className="gallery__item">
            <a
              className="gallery__link"
              href={image.full ?? image.src}
              // Decorative (empty alt) images still need a name for their link.
              aria-label={image.alt ? undefined : t("viewer.gallery.position", { index: index + 1, total })}
              onClick={(event) => {
                if (isModifiedClick(event)) return;
                event.preventDefault();
                open(images, index, event.currentTarget);
              }}
            >
              <img className="gallery__thumb" src={image.src} alt={image.alt} loading="lazy" decoding="async" />
            </a>
          </li>
        ))}
      </ul>
      {dialog}
    </div>
  );
}

const TRIGGER_CLASS = "gallery-html__trigger";

/**
 * Wraps every `<img>` in `container` that is not already inside a link or button in a real
 * `<button>`; returns the images (in document order) and an undo function.
 */
function enhanceImages(
  container: HTMLElement,
  label: (alt: string) => string,
): { images: GalleryImage[]; undo(): void } {
  const images: GalleryImage[] = [];
  const buttons: HTMLButtonElement[] = [];
  for (const img of Array.from(container.querySelectorAll("img"))) {
    if (img.closest("a[href], button, [role='button']")) continue;
    const src = img.currentSrc || img.getAttribute("src") || "";
    if (!src) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.className = TRIGGER_CLASS;
    button.dataset.galleryIndex = String(images.length);
    button.setAttribute("aria-label", label(img.alt));
    img.replaceWith(button);
    button.append(img);
    images.push({ src, alt: img.alt });
    buttons.push(button);
  }
  return {
    images,
    undo() {
      for (const button of buttons) {
        const img = button.firstElementChild;
        if (img && button.isConnected) button.replaceWith(img);
      }
    },
  };
}

export type GalleryFromHtmlProps = {
  /** HTML sanitized on the server (e.g. with `sanitizeCourseHtml`). */
  html: string;
  className?: string;
  /** The text's own language and direction (issue 25 item 2: a course's language, else `dir="auto"`). */
  lang?: string;
  dir?: "ltr" | "rtl" | "auto";
};

/**
 * Renders sanitized HTML (text activities). With JavaScript every image not inside a link becomes a
 * button opening the gallery dialog with all images of the text; without it the images are plain.
 */
export function GalleryFromHtml({ html, className, lang, dir }: GalleryFromHtmlProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const imagesRef = useRef<GalleryImage[]>([]);
  const { open, dialog } = useGalleryDialog();
  const label = (alt: string) => (alt ? t("viewer.gallery.enlargeNamed", { alt }) : t("viewer.gallery.enlarge"));
  const labelOf = useEffectEvent(label);

  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    const enhanced = enhanceImages(container, (alt) => labelOf(alt));
    imagesRef.current = enhanced.images;
    return () => {
      enhanced.undo();
      imagesRef.current = [];
    };
  }, [html]);

  return (
    <>
      <div
        ref={ref}
        className={className ? `gallery-html ${className}` : "gallery-html"}
        lang={lang}
        dir={dir}
        onClick={(event) => {
          const trigger = (event.target as Element).closest<HTMLButtonElement>(`button.${TRIGGER_CLASS}`);
          if (!trigger || !event.currentTarget.contains(trigger)) return;
          event.preventDefault();
          open(imagesRef.current, Number(trigger.dataset.galleryIndex ?? 0), trigger);
        }}
        dangerouslySetInnerHTML={{ __html: html }}
      />
      {dialog}
    </>
  );
}
