import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useEffectEvent,
  useRef,
  useState,
  type MouseEvent,
  type ReactNode,
} from "react";
import { useTranslation } from "~/common/i18n";
import { wrapIndex } from "./keys";

import type { GalleryImage, Opened } from "./gallery-dialog";

export type { GalleryImage };

/** The dialog's own chunk, asked for when a gallery first opens (not first-load JavaScript). */
const GalleryDialog = lazy(() => import("./gallery-dialog"));

/** Whether a click should stay a plain link click (new tab, download, middle button …). */
function isModifiedClick(event: MouseEvent): boolean {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
}

/** The fullscreen dialog of `Gallery` and `GalleryFromHtml` (gallery-dialog.tsx) and how to open it. */
function useGalleryDialog() {
  const [opened, setOpened] = useState<Opened | null>(null);
  const open = useCallback((images: GalleryImage[], index: number, opener: HTMLElement | null) => {
    if (images.length === 0) return;
    setOpened({ images, index: wrapIndex(index, images.length), opener });
  }, []);
  const dialog = opened ? (
    <Suspense fallback={null}>
      <GalleryDialog
        opened={opened}
        onMove={(index) => setOpened({ ...opened, index })}
        onClosed={() => setOpened(null)}
      />
    </Suspense>
  ) : null;
  return { open, dialog };
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
