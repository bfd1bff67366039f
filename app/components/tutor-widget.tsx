import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { Link, useFetcher } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { TutorExchange } from "#domain/contract/tutor";
import { rememberTutorWidget, TUTOR_WIDGET_COOKIE } from "#domain/tutor";
import Tutor from "./tutor";
import { useHydrated } from "./use-hydrated";

/** What the tutor page's loader gives (and the course pages' layout, for a widget that opens expanded). */
interface Chat {
  available: boolean;
  exchanges: TutorExchange[];
  commandId: string;
}

export interface TutorWidgetProps {
  objectiveId: string;
  /** The learner's own last choice on this course: expanded. */
  expanded: boolean;
  /** Spec 3 widgetSettings expand it (no choice of hers): opened by the script on a wide screen only. */
  expandOnWide?: boolean;
  /** The conversation, when the page came with the widget expanded. */
  chat: Chat | null;
  /** The question id of the form shown before the conversation has loaded (without JavaScript). */
  commandId: string;
}

/** Remembers the learner's expand / collapse on this course for the next page the server renders. */
function remember(objectiveId: string, expanded: boolean) {
  const prefix = `${TUTOR_WIDGET_COOKIE}=`;
  const current = document.cookie
    .split("; ")
    .find((c) => c.startsWith(prefix))
    ?.slice(prefix.length);
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${prefix}${rememberTutorWidget(current, objectiveId, expanded)}; Path=/learn; Max-Age=${180 * 24 * 3600}; SameSite=Lax${secure}`;
}

/**
 * The AI tutor widget of a course's pages (issue 16 item 4, spec 2.11; decision 028): a disclosure docked
 * at the inline end whose panel is the tutor page's conversation and form (the same component, posting to
 * the same routes). Without JavaScript it is a plain `<details>`: expanded it shows the conversation the
 * page came with; its form posts to the tutor page, which answers. With JavaScript the conversation loads
 * from the tutor page's loader when the widget is first opened, answers stream in place, focus moves into
 * the widget when it opens and Escape closes it, back to its toggle; the learner's choice is remembered.
 */
/** A screen wide enough for the course's "expanded" (a phone or a narrow window: the widget starts collapsed). */
const WIDE = "(min-width: 64em)";

export default function TutorWidget({
  objectiveId,
  expanded,
  expandOnWide = false,
  chat: initialChat,
  commandId,
}: TutorWidgetProps) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(expanded);
  const details = useRef<HTMLDetailsElement>(null);
  const summary = useRef<HTMLElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const focusInside = useRef(false);
  const requested = useRef(false);
  const fetcher = useFetcher<Chat>();
  const tutorPage = `/learn/courses/${objectiveId}/tutor`;
  const chat = fetcher.data ?? initialChat;
  const count = chat?.exchanges.length ?? 0;

  // A learner who opened the disclosure before the scripts ran: the state follows the element.
  useEffect(() => {
    if (details.current && details.current.open !== open) setOpen(details.current.open);
    else if (expandOnWide && !open && window.matchMedia(WIDE).matches) setOpen(true);
    // Once, on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The conversation loads the first time the widget is open without it.
  useEffect(() => {
    if (!open || chat || requested.current) return;
    requested.current = true;
    void fetcher.load(tutorPage);
  }, [open, chat, fetcher, tutorPage]);

  // Focus moves into the widget when the learner opens it: to the question once the conversation is there.
  useEffect(() => {
    if (!open || !focusInside.current || !panel.current) return;
    const question = panel.current.querySelector("textarea");
    if (question) {
      focusInside.current = false;
      question.focus();
    } else panel.current.focus();
  }, [open, chat]);

  // A new exchange (or the conversation just loaded): a docked panel shows its end, the latest answer. An
  // empty conversation stays at its top, so its introduction is read whole (issue 25 item 5).
  useEffect(() => {
    if (open && panel.current && count > 0) panel.current.scrollTop = panel.current.scrollHeight;
  }, [open, count]);

  const onToggle = () => {
    const now = details.current?.open ?? false;
    // Only the learner's own toggles: React setting `open` fires the event as well.
    if (now === open) return;
    setOpen(now);
    remember(objectiveId, now);
    focusInside.current = now;
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !open || event.nativeEvent.isComposing) return;
    event.preventDefault();
    setOpen(false);
    remember(objectiveId, false);
    summary.current?.focus();
  };

  return (
    <section className="tutor-widget" aria-label={t("tutor.title")}>
      <details ref={details} open={open} onToggle={onToggle} onKeyDown={onKeyDown}>
        <summary ref={summary}>{t("tutor.widgetToggle")}</summary>
        <div className="tutor-widget__panel" ref={panel} tabIndex={-1}>
          {chat ? (
            chat.available ? (
              <Tutor
                objectiveId={objectiveId}
                exchanges={chat.exchanges}
                commandId={chat.commandId}
                action={tutorPage}
                reload={() => fetcher.load(tutorPage)}
              />
            ) : (
              <p className="notice" role="status">
                {t("messages.chatUnavailable")}
              </p>
            )
          ) : hydrated && open ? (
            <p className="notice">{t("app.loading")}</p>
          ) : (
            // Before the conversation: the form alone, posting to the tutor page (the no-JavaScript path).
            <Tutor objectiveId={objectiveId} exchanges={[]} commandId={commandId} action={tutorPage} />
          )}
          <p className="tutor-widget__page">
            <Link to={tutorPage}>{t("tutor.widgetPage")}</Link>
          </p>
        </div>
      </details>
    </section>
  );
}
