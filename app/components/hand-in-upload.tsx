import { useEffect, useRef, useState, type DragEvent, type ReactNode } from "react";
import { useNavigate } from "react-router";
import { kindOfName, type AttachmentKind } from "#domain/chat-attachments";
import { useTranslation } from "~/common/i18n";
import { HAND_IN_UPLOAD_HEADER } from "~/common/constants";
import { INTENT, INTENT_FIELD } from "~/common/forms/intents";
import { useHydrated } from "./use-hydrated";

/** One chosen file as the page shows it while it is checked and sent. */
interface Chosen {
  name: string;
  size: number;
  refused: string | null;
}

/** Each file's share sent (0–1) when `fraction` of the request's body is: the files go in their order. */
export function fileProgress(sizes: number[], fraction: number): number[] {
  const total = sizes.reduce((a, b) => a + b, 0);
  let before = 0;
  return sizes.map((size) => {
    const done = size === 0 ? (fraction >= 1 ? 1 : 0) : (fraction * total - before) / size;
    before += size;
    return Math.min(1, Math.max(0, done));
  });
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
  uploadUrl,
  children,
}: {
  inputId: string;
  uploadUrl: string;
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
  /** While files are sent: each one with its share sent, 0–1. */
  const [sending, setSending] = useState<{ name: string; done: number }[] | null>(null);
  const navigate = useNavigate();
  const plainPost = useRef(false);

  useEffect(() => {
    const form = zone.current?.closest("form");
    if (!form) return;
    const onSubmit = (e: SubmitEvent) => {
      const el = form.querySelector<HTMLInputElement>(`#${inputId}`);
      const submitter = e.submitter instanceof HTMLButtonElement ? e.submitter : null;
      const intent = submitter?.name === INTENT_FIELD ? submitter.value : null;
      const files = Array.from(el?.files ?? []);
      if (plainPost.current || files.length === 0 || (intent !== INTENT.handInSave && intent !== INTENT.handInReview))
        return;
      // Ours, not the router's (its handler runs after this one, on the document).
      e.preventDefault();
      e.stopPropagation();
      const sizes = files.map((f) => f.size);
      const show = (done: number[]) => setSending(files.map((f, i) => ({ name: f.name, done: done[i] ?? 0 })));
      show(sizes.map(() => 0));
      const xhr = new XMLHttpRequest();
      const fallBack = () => {
        setSending(null);
        plainPost.current = true;
        form.requestSubmit(submitter);
        plainPost.current = false;
      };
      xhr.upload.onprogress = (p) => {
        if (p.lengthComputable) show(fileProgress(sizes, p.loaded / p.total));
      };
      xhr.onload = () => {
        const location = (xhr.response as { location?: unknown } | null)?.location;
        if (xhr.status !== 200 || typeof location !== "string" || !location.startsWith("/learn/")) return fallBack();
        show(sizes.map(() => 1));
        if (el) el.value = "";
        setChosen([]);
        void Promise.resolve(navigate(location)).then(() => setSending(null));
      };
      xhr.onerror = fallBack;
      xhr.open("POST", uploadUrl);
      xhr.responseType = "json";
      xhr.setRequestHeader(HAND_IN_UPLOAD_HEADER, "1");
      xhr.send(new FormData(form, submitter));
    };
    form.addEventListener("submit", onSubmit);
    return () => form.removeEventListener("submit", onSubmit);
  }, [inputId, uploadUrl, navigate]);

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
      {sending ? (
        <ul className="hand-in__uploads">
          {sending.map((f, i) => {
            const percent = Math.round(f.done * 100);
            return (
              <li key={`${f.name}-${i}`}>
                <span dir="auto">{f.name}</span>{" "}
                <progress max={100} value={percent} aria-label={t("handIn.upload.sending", { name: f.name })} />{" "}
                <span>{percent} %</span>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
