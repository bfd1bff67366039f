import { useRef, useState, type DragEvent, type ReactNode } from "react";
import { kindOfName, type AttachmentKind } from "#domain/chat-attachments";
import { useTranslation } from "~/common/i18n";
import { useHydrated } from "./use-hydrated";

/** One chosen file as the page shows it while it is checked and sent. */
interface Chosen {
  name: string;
  size: number;
  refused: string | null;
}

/**
 * Issue 49 item 1 / decision 058, with JavaScript only: a drop zone around the hand-in's file input (the input
 * stays the keyboard's way in), each chosen file checked by size and kind before it is sent (a clear refusal per
 * file; the server checks again, by contents). The form is then posted as before. Without JavaScript the
 * input and the multipart post are untouched.
 */
export function HandInDropZone({
  inputId,
  maxBytes,
  types,
  sizeText,
  typesText,
  children,
}: {
  inputId: string;
  maxBytes: number;
  types: readonly AttachmentKind[];
  sizeText: string;
  typesText: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const zone = useRef<HTMLDivElement>(null);
  const [over, setOver] = useState(false);
  const hydrated = useHydrated();
  const [chosen, setChosen] = useState<Chosen[]>([]);

  const input = () => zone.current?.querySelector<HTMLInputElement>(`#${inputId}`) ?? null;
  /** Keeps the acceptable files in the input; lists every file with its refusal, if any. */
  function check(files: FileList | null) {
    const el = input();
    if (!el || !files) return;
    const keep = new DataTransfer();
    const list: Chosen[] = [];
    for (const f of Array.from(files)) {
      const kind = kindOfName(f.name);
      const why =
        f.size > maxBytes
          ? t("apiErrors.attachmentTooLarge", { size: sizeText })
          : !kind || !types.includes(kind)
            ? t("apiErrors.attachmentType", { types: typesText })
            : null;
      if (!why) keep.items.add(f);
      list.push({ name: f.name, size: f.size, refused: why });
    }
    el.files = keep.files;
    setChosen(list);
  }

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    check(e.dataTransfer.files);
  };

  return (
    <div
      ref={zone}
      className={over ? "hand-in__drop hand-in__drop--over" : "hand-in__drop"}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      onChange={(e) => {
        if ((e.target as HTMLElement).id === inputId) check((e.target as HTMLInputElement).files);
      }}
    >
      {hydrated ? (
        <p className="hand-in__drop-hint" aria-hidden="true">
          {t("handIn.upload.drop")}
        </p>
      ) : null}
      {children}
      <ul className="hand-in__uploads" aria-live="polite">
        {chosen.map((c, i) => (
          <li key={`${c.name}-${i}`}>
            {c.refused ? (
              <span className="hand-in__upload-refused">
                {t("handIn.upload.refused", { name: c.name, reason: c.refused })}
              </span>
            ) : (
              c.name
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
