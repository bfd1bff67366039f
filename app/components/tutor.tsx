import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation, useRevalidator } from "react-router";
import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useTranslation } from "~/common/i18n";
import type { TutorExchange } from "#domain/contract/tutor";
import { citationHref, TUTOR_QUESTION_MAX } from "#domain/tutor";
import { askTutorFormSchema } from "~/common/forms/tutor";
import { INTENT } from "~/common/forms/intents";
import { parseSubmission } from "~/common/forms/parse";
import { textLanguage } from "#domain/locales";
import { FieldErrors } from "./field-errors";
import { useHydrated } from "./use-hydrated";
import { useTypedBeforeHydration } from "./use-typed-before-hydration";

export interface TutorProps {
  objectiveId: string;
  /** The course's language: quotations and citations keep its direction (issue 25 item 2). */
  language?: string | null;
  exchanges: TutorExchange[];
  commandId: string;
  lastResult?: SubmissionResult<string[]> | null;
  /** Where the form posts without JavaScript (the tutor page's action; default: the page it is on). */
  action?: string;
  /** Reloads the conversation once an answer is stored (default: the page's loaders). */
  reload?: () => Promise<void>;
}

/**
 * The course's AI tutor: the conversation, each answer quoting the course with links
 * to the activities it cites, and a form (post → the page with the answer; the same with JavaScript).
 */
/** One server-sent event of the answer stream: `event:` and `data:` lines. */
function parseEvent(raw: string): { event: string; data: string } {
  let event = "message";
  const data: string[] = [];
  for (const line of raw.split("\n")) {
    if (line.startsWith("event:")) event = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
  }
  return { event, data: data.join("\n") };
}

type Live = {
  id: string;
  question: string;
  text: string;
  state: "streaming" | "done" | "failed" | "limited";
  /** Too many questions (429): when to ask again. */
  retryAfterSeconds?: number;
};

/**
 * Issue 16 item 6: with JavaScript the question goes to /tutor/stream and the answer shows as the model
 * writes it; when it ends the page reloads the conversation (the stored answer, with its citations).
 * Stop cancels the request, and with it the model. Without JavaScript (or streams) the form posts.
 */
function useStreamedAnswer(objectiveId: string, exchanges: TutorExchange[], reload?: () => Promise<void>) {
  const revalidator = useRevalidator();
  const [live, setLive] = useState<Live | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const ask = async (formData: FormData) => {
    const ac = new AbortController();
    controller.current = ac;
    const id = String(formData.get("id"));
    setLive({ id, question: String(formData.get("question")), text: "", state: "streaming" });
    try {
      const res = await fetch(`/learn/courses/${objectiveId}/tutor/stream`, {
        method: "POST",
        body: formData,
        signal: ac.signal,
      });
      if (res.status === 429) {
        // The API's 429 in the learner's words, with when to ask again.
        const seconds = Number(res.headers.get("Retry-After")) || 60;
        setLive((l) => (l ? { ...l, state: "limited", retryAfterSeconds: seconds } : l));
        return;
      }
      if (!res.ok || !res.body) throw new Error(String(res.status));
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        for (let at = buffer.indexOf("\n\n"); at >= 0; at = buffer.indexOf("\n\n")) {
          const { event, data } = parseEvent(buffer.slice(0, at));
          buffer = buffer.slice(at + 2);
          if (event === "delta") {
            const text = (JSON.parse(data) as { text: string }).text;
            setLive((l) => (l ? { ...l, text: l.text + text } : l));
          } else if (event === "fallback") setLive((l) => (l ? { ...l, text: "" } : l));
          else if (event === "done") setLive((l) => (l ? { ...l, state: "done" } : l));
        }
      }
      await (reload ? reload() : revalidator.revalidate());
    } catch {
      setLive((l) => (ac.signal.aborted ? null : l ? { ...l, state: "failed" } : l));
    }
  };
  // Once the stored exchange has come with the reloaded conversation, it shows instead of the live one.
  const stored = live?.state === "done" && exchanges.some((e) => e.id === live.id);
  return { live: stored ? null : live, ask, stop: () => controller.current?.abort() };
}

export default function Tutor({
  objectiveId,
  language = null,
  exchanges,
  commandId,
  lastResult,
  action,
  reload,
}: TutorProps) {
  const own = textLanguage(language);
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { live, ask, stop } = useStreamedAnswer(objectiveId, exchanges, reload);
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    id: `tutor-${commandId}`,
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseSubmission(formData, askTutorFormSchema),
    onSubmit: (event, { formData }) => {
      if (typeof TextDecoderStream === "undefined") return; // an old browser: the form posts
      event.preventDefault();
      void ask(formData);
    },
  });
  useTypedBeforeHydration(fields.question.id);
  const asking =
    live?.state === "streaming" ||
    (navigation.state === "submitting" && navigation.formData?.get("intent") === INTENT.askTutor);
  return (
    <div className="tutor">
      {exchanges.length === 0 ? <p className="empty-state">{t("tutor.intro")}</p> : null}
      <ol className="tutor__log">
        {exchanges.map((e) => (
          <li key={e.id} id={`exchange-${e.id}`} className="tutor__exchange">
            <p className="tutor__question">
              <strong>{t("tutor.you")}</strong> <bdi>{e.question}</bdi>
            </p>
            <div className="tutor__answer">
              <strong>{t("tutor.tutor")}</strong>
              {e.passages.length === 0 ? (
                <p>{t("tutor.nothingFound")}</p>
              ) : (
                <>
                  {e.answeredBy === "model" ? (
                    <p style={{ whiteSpace: "pre-wrap" }} dir="auto">
                      {e.answer}
                    </p>
                  ) : (
                    <p>{t(e.answeredBy === "fallback" ? "tutor.modelFailed" : "tutor.fromCourse")}</p>
                  )}
                  {(e.answeredBy === "model" ? [] : e.passages).map((p, i) => (
                    <blockquote key={i} cite={citationHref(objectiveId, p)} {...own}>
                      <p>{p.text}</p>
                    </blockquote>
                  ))}
                  <p>
                    {t("tutor.sources")}{" "}
                    {e.citations.map((c, i) => (
                      <span key={`${c.activityPathId}-${c.page ?? ""}`}>
                        {i > 0 ? ", " : null}
                        <Link to={citationHref(objectiveId, c)}>
                          {c.page === undefined ? (
                            <bdi {...own}>{c.name}</bdi>
                          ) : (
                            t("tutor.citationPage", { name: c.name, page: c.page })
                          )}
                        </Link>
                      </span>
                    ))}
                  </p>
                </>
              )}
            </div>
          </li>
        ))}
        {live ? (
          <li className="tutor__exchange" aria-busy={live.state === "streaming"}>
            <p className="tutor__question">
              <strong>{t("tutor.you")}</strong> <bdi>{live.question}</bdi>
            </p>
            <div className="tutor__answer">
              <strong>{t("tutor.tutor")}</strong>
              {live.state === "failed" ? (
                <p className="notice">{t("tutor.streamFailed")}</p>
              ) : live.state === "limited" ? (
                <p className="notice" role="alert">
                  {t("apiErrors.tooManyRequestsIn", { seconds: live.retryAfterSeconds })}
                </p>
              ) : (
                <p style={{ whiteSpace: "pre-wrap" }} data-testid="tutor-live">
                  {live.text || t("tutor.asking")}
                </p>
              )}
              {live.state === "streaming" ? (
                <button type="button" className="button" onClick={stop}>
                  {t("tutor.stop")}
                </button>
              ) : null}
            </div>
          </li>
        ) : null}
      </ol>
      {/* Said once the answer is complete, not word by word. */}
      <p className="visually-hidden" aria-live="polite">
        {live?.state === "done" ? t("tutor.answered") : ""}
      </p>
      <Form
        method="post"
        action={action}
        className="tutor__form"
        preventScrollReset
        {...getFormProps(form)}
        // Answers stream here once the scripts run (until then the form posts): said for tests and tools.
        data-streaming={hydrated ? "" : undefined}
      >
        <input type="hidden" name="intent" value={INTENT.askTutor} />
        <input type="hidden" name="id" value={commandId} />
        <label htmlFor={fields.question.id}>{t("tutor.questionLabel")}</label>
        <textarea
          {...getTextareaProps(fields.question, { ariaAttributes: true })}
          key={fields.question.key}
          rows={3}
          maxLength={TUTOR_QUESTION_MAX}
          required
        />
        <FieldErrors id={fields.question.errorId} errors={fields.question.errors} />
        <FieldErrors id={form.errorId} errors={form.errors} />
        <button type="submit" className="button button--primary" disabled={asking}>
          {asking ? t("tutor.asking") : t("tutor.ask")}
        </button>
      </Form>
    </div>
  );
}
