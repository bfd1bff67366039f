import { useEffect, useMemo, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useTranslation } from "~/common/i18n";
import { CHAT_BODY_MAX } from "#domain/limits";
import { linkify } from "#domain/chat";
import { chatPostSchema } from "~/common/forms/chat";
import { INTENT } from "~/common/forms/intents";
import { parseSubmission } from "~/common/forms/parse";
import { FieldErrors } from "./field-errors";
import { type ChatAttachmentView, type ChatMessageView, type ChatView } from "~/common/views/chat";
import { useTypedBeforeHydration } from "./use-typed-before-hydration";

/** Plain text with its links made clickable; React escapes the rest, so HTML shows as typed. */
/** Issue 25 item 2: a message keeps its own direction (`dir="auto"`), whatever the page's. */
function MessageText({ body }: { body: string }) {
  return (
    <p dir="auto">
      {linkify(body).map((piece, i) =>
        piece.kind === "link" ? (
          <a key={i} href={piece.href} rel="noopener noreferrer nofollow" target="_blank">
            {piece.text}
          </a>
        ) : (
          piece.text
        ),
      )}
    </p>
  );
}

/**
 * A message's files: links with name and size (spec 5 sizes) through the app's origin; images with a
 * small preview. The link's name is the file's; the preview is decoration (empty alt).
 */
function Attachments({ files }: { files: ChatAttachmentView[] }) {
  const { t } = useTranslation();
  return (
    <ul className="chat__attachments" aria-label={t("chat.attachments")}>
      {files.map((a) => (
        <li key={a.id}>
          <a href={a.url} type={a.type} download={a.image ? undefined : a.name}>
            {a.image ? <img src={a.url} alt="" loading="lazy" decoding="async" /> : null}
            <span className="chat__file-name">{a.name}</span> <span className="chat__file-size">({a.sizeText})</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

function Message({ m }: { m: ChatMessageView }) {
  const { t } = useTranslation();
  return (
    <article className="chat__message" id={`message-${m.id}`} aria-labelledby={`message-${m.id}-author`}>
      <header>
        <span className="chat__author" id={`message-${m.id}-author`}>
          {m.author.name}
          {m.mine ? ` (${t("chat.you")})` : null}
        </span>
        <time dateTime={m.createdAt}>{m.time}</time>
        {m.editedAt && !m.deleted ? <span>{t("chat.edited")}</span> : null}
      </header>
      {m.deleted ? <p className="chat__deleted">{t("chat.deleted")}</p> : m.body ? <MessageText body={m.body} /> : null}
      {!m.deleted && m.attachments.length > 0 ? <Attachments files={m.attachments} /> : null}
    </article>
  );
}

/**
 * Messages the page was rendered with, plus those the live stream brought: one per id (the newest
 * version wins), in posting order. A message that comes both ways shows once.
 */
function merge(base: ChatMessageView[], live: Map<string, ChatMessageView>): ChatMessageView[] {
  const byId = new Map(base.map((m) => [m.id, m]));
  for (const m of live.values()) {
    const known = byId.get(m.id);
    if (!known || known.version < m.version) byId.set(m.id, m);
  }
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

/** The live stream of the open channel (server-sent events; the browser reconnects with Last-Event-ID). */
function useLiveMessages(objectiveId: string, channel: string, after: number) {
  const [live, setLive] = useState(() => new Map<string, ChatMessageView>());
  useEffect(() => {
    const source = new EventSource(
      `/learn/courses/${objectiveId}/chat-events?channel=${encodeURIComponent(channel)}&after=${after}`,
    );
    source.addEventListener("message", (event) => {
      const m = JSON.parse((event as MessageEvent<string>).data) as ChatMessageView;
      setLive((prev) => new Map(prev).set(m.id, m));
    });
    return () => source.close();
  }, [objectiveId, channel, after]);
  return live;
}

export interface ChatProps extends ChatView {
  objectiveId: string;
  lastResult?: SubmissionResult<string[]> | null;
}

/**
 * The course's hub (spec 2.5, issue 16 item 2): the channel tabs with their unread badges, the messages
 * and the form. Without JavaScript: a form that posts and comes back to this page, and a refresh link;
 * with it, messages arrive as they are written.
 */
export default function Chat(props: ChatProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const live = useLiveMessages(props.objectiveId, props.channel, props.lastVersion);
  const messages = useMemo(() => merge(props.messages, live), [props.messages, live]);
  // The API's rules, checked before sending (size, extension, count); the contents only the API reads.
  const schema = useMemo(() => chatPostSchema(props.files), [props.files]);
  const [form, fields] = useForm({
    id: `chat-${props.commandId}`,
    lastResult: props.lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseSubmission(formData, schema),
  });
  useTypedBeforeHydration(fields.body.id);
  const fileHint = `${fields.attachments.id}-hint`;
  // Until the page with the new command id has loaded: a second message sent sooner would reuse the id
  // and be taken for a repeat of the first.
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === INTENT.chatPost;
  const here = `/learn/courses/${props.objectiveId}/view/notifications?channel=${props.channel}`;
  return (
    <div className="chat">
      <nav className="chat__channels" aria-label={t("chat.channels")}>
        <ul>
          {props.channels.map((c) => (
            <li key={c.kind}>
              <Link
                to={`/learn/courses/${props.objectiveId}/view/notifications?channel=${c.kind}`}
                aria-current={c.kind === props.channel ? "page" : undefined}
              >
                {t(`chat.channel.${c.kind}`)}
                {c.unreadCount > 0 ? (
                  <span className="unread-badge">
                    <span aria-hidden="true">{c.unreadCount}</span>
                    <span className="visually-hidden">{t("chat.unread", { count: c.unreadCount })}</span>
                  </span>
                ) : null}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <h2 id="chat-title">{t(`chat.channel.${props.channel}`)}</h2>
      {messages.length === 0 ? (
        <p className="empty-state">{t("chat.empty")}</p>
      ) : (
        // A scrollable region the keyboard reaches; "log": screen readers announce new messages politely.
        <div className="chat__log" role="log" aria-labelledby="chat-title" tabIndex={0}>
          <ol>
            {messages.map((m) => (
              <li key={m.id}>
                <Message m={m} />
              </li>
            ))}
          </ol>
        </div>
      )}
      {props.mayPost ? (
        <Form
          method="post"
          action={here}
          encType="multipart/form-data"
          className="chat__form"
          preventScrollReset
          {...getFormProps(form)}
        >
          <input type="hidden" name="intent" value={INTENT.chatPost} />
          <input type="hidden" name="id" value={props.commandId} />
          <label htmlFor={fields.body.id}>{t("chat.messageLabel")}</label>
          <textarea
            {...getTextareaProps(fields.body, { ariaAttributes: true })}
            key={fields.body.key}
            rows={3}
            maxLength={CHAT_BODY_MAX}
          />
          <FieldErrors id={fields.body.errorId} errors={fields.body.errors} />
          <label htmlFor={fields.attachments.id}>{t("chat.attach")}</label>
          <input
            {...getInputProps(fields.attachments, { type: "file", ariaAttributes: true })}
            key={fields.attachments.key}
            multiple={props.files.maxCount > 1}
            accept={props.files.accept}
            aria-describedby={fields.attachments.errors ? `${fileHint} ${fields.attachments.errorId}` : fileHint}
          />
          <p id={fileHint} className="chat__hint">
            {t("chat.attachHint", {
              max: props.files.maxCount,
              size: props.files.sizeText,
              types: props.files.typesText,
            })}
          </p>
          <FieldErrors id={fields.attachments.errorId} errors={fields.attachments.errors} />
          <FieldErrors id={form.errorId} errors={form.errors} />
          <div className="chat__actions">
            <button type="submit" className="button button--primary" disabled={sending}>
              {sending ? t("chat.sending") : t("chat.send")}
            </button>
            <Link to={here} reloadDocument>
              {t("chat.refresh")}
            </Link>
          </div>
        </Form>
      ) : (
        <p className="chat__actions">
          <span>{t("chat.readOnly")}</span>
          <Link to={here} reloadDocument>
            {t("chat.refresh")}
          </Link>
        </p>
      )}
    </div>
  );
}
