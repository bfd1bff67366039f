import { useCallback, useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { useTranslation } from "~/common/i18n";
import { INTENT } from "~/common/forms/intents";

/** What the page's action answers an autosave with (decision 057). */
export type AutosaveResult =
  | { autosave: "saved"; commandId: string; at: string }
  | { autosave: "retry"; commandId: string; retryAfter: number | null }
  | { autosave: "timeUp"; commandId: string }
  | { autosave: "refused"; commandId: string; key: string; values?: Record<string, string> };

type Status =
  | { kind: "idle" }
  | { kind: "saving" }
  | { kind: "saved"; at: string }
  | { kind: "retrying" }
  | { kind: "timeUp" }
  | { kind: "refused"; key: string; values?: Record<string, string> };

/** Fields of the page's form that are not the learner's answers. */
const NOT_CONTENT = new Set(["intent", "commandId", "go"]);
/** Seconds to wait after the learner stops typing or choosing. */
const AUTOSAVE_DELAY_MS = 1200;
/** When a refusal says nothing of when to come back (a dropped connection): 2, 4, 8… seconds, at most 30. */
const backoff = (failures: number) => Math.min(30, 2 ** Math.min(failures, 5)) * 1000;

/** The form's answers (files left out: an upload is sent by its own button) and a key of their content. */
function contentOf(form: HTMLFormElement): { data: FormData; key: string } {
  const data = new FormData(form);
  const entries: [string, string][] = [];
  for (const [k, v] of [...data.entries()]) {
    if (typeof v !== "string") data.delete(k);
    else if (!NOT_CONTENT.has(k)) entries.push([k, v]);
  }
  return { data, key: JSON.stringify(entries) };
}

/**
 * With JavaScript only: the page's answers saved as the learner goes — after a pause in typing or
 * choosing, and when the page is hidden — by the page's own action (intent `assessmentAutosave`), each
 * distinct content with a new command id and a retry of it with the same (idempotent). A refusal for load
 * (503/429) is retried after its Retry-After; the time up stops it. `unsaved()` tells the leave warning.
 */
export function useAutosave(formId: string, resetKey: string, onChanged?: (form: HTMLFormElement) => void) {
  const fetcher = useFetcher<AutosaveResult>();
  const submit = useRef(fetcher.submit);
  const busy = useRef(false);
  useEffect(() => {
    submit.current = fetcher.submit;
    busy.current = fetcher.state !== "idle";
  });
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const saved = useRef<string | null>(null);
  const sent = useRef<{ key: string; id: string } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const stopped = useRef(false);
  const failures = useRef(0);
  const posting = useRef(false);

  const form = useCallback(() => document.getElementById(formId) as HTMLFormElement | null, [formId]);
  const unsaved = useCallback(() => {
    const f = form();
    return !!f && !stopped.current && contentOf(f).key !== saved.current;
  }, [form]);

  /** The command for the form's content now: the same id as the last one sent for the same content. */
  const command = useCallback(() => {
    const f = form();
    if (!f || stopped.current) return null;
    const { data, key } = contentOf(f);
    if (key === saved.current) return null;
    const id = sent.current?.key === key ? sent.current.id : crypto.randomUUID();
    sent.current = { key, id };
    data.set("intent", INTENT.assessmentAutosave);
    data.set("commandId", id);
    return data;
  }, [form]);

  const save = useCallback(() => {
    clearTimeout(timer.current);
    if (busy.current) return; // the answer in flight schedules the next save
    const data = command();
    if (!data) return;
    setStatus({ kind: "saving" });
    busy.current = true;
    void submit.current(data, { method: "post" });
  }, [command]);

  // The answer of the last save.
  useEffect(() => {
    const r = fetcher.data;
    if (fetcher.state !== "idle" || !r) return;
    if (r.commandId !== sent.current?.id) return;
    // The fetcher's answer is an outside event: the status follows it.
    /* eslint-disable react-hooks/set-state-in-effect */
    switch (r.autosave) {
      case "saved":
        failures.current = 0;
        saved.current = sent.current.key;
        setStatus({ kind: "saved", at: r.at });
        if (unsaved()) timer.current = setTimeout(save, AUTOSAVE_DELAY_MS);
        break;
      case "retry":
        failures.current += 1;
        setStatus({ kind: "retrying" });
        timer.current = setTimeout(save, r.retryAfter !== null ? r.retryAfter * 1000 : backoff(failures.current));
        break;
      case "timeUp":
        stopped.current = true;
        setStatus({ kind: "timeUp" });
        break;
      case "refused":
        setStatus({ kind: "refused", key: r.key, ...(r.values ? { values: r.values } : {}) });
        break;
    }
    /* eslint-enable react-hooks/set-state-in-effect */
  }, [fetcher.data, fetcher.state, save, unsaved]);

  useEffect(() => {
    const f = form();
    if (!f) return;
    // A new page from the server (resetKey): what the form shows is what is stored.
    saved.current = contentOf(f).key;
    posting.current = false;
    onChanged?.(f);
    const changed = () => {
      onChanged?.(f);
      if (stopped.current) return;
      clearTimeout(timer.current);
      timer.current = setTimeout(save, AUTOSAVE_DELAY_MS);
    };
    const submitted = () => {
      posting.current = true;
      clearTimeout(timer.current);
    };
    // Leaving or hiding the page: what is not saved yet goes with keepalive, the same command.
    const hidden = () => {
      if (posting.current || document.visibilityState !== "hidden") return;
      const data = command();
      if (!data) return;
      void fetch(f.action || window.location.href, { method: "POST", body: data, keepalive: true }).catch(() => {});
    };
    const leaving = (e: BeforeUnloadEvent) => {
      if (!posting.current && unsaved()) e.preventDefault();
    };
    f.addEventListener("input", changed);
    f.addEventListener("change", changed);
    f.addEventListener("submit", submitted);
    document.addEventListener("visibilitychange", hidden);
    window.addEventListener("pagehide", hidden);
    window.addEventListener("beforeunload", leaving);
    return () => {
      clearTimeout(timer.current);
      f.removeEventListener("input", changed);
      f.removeEventListener("change", changed);
      f.removeEventListener("submit", submitted);
      document.removeEventListener("visibilitychange", hidden);
      window.removeEventListener("pagehide", hidden);
      window.removeEventListener("beforeunload", leaving);
    };
  }, [form, save, command, unsaved, onChanged, resetKey]);

  return { status, unsaved };
}

/** The autosave's status, said politely to screen readers: saving, saved at, retrying, time up. */
export function AutosaveStatus({ status }: { status: Status }) {
  const { t } = useTranslation();
  let text = "";
  if (status.kind === "saving") text = t("assessment.autosaving");
  else if (status.kind === "saved") text = t("assessment.autosaved", { time: status.at });
  else if (status.kind === "retrying") text = t("assessment.autosaveRetrying");
  else if (status.kind === "timeUp") text = t("assessment.autosaveTimeUp");
  else if (status.kind === "refused") text = `${t("assessment.autosaveRefused")} ${t(status.key, status.values)}`;
  return (
    <p className="qti-autosave" aria-live="polite" data-status={status.kind}>
      {text}
    </p>
  );
}
