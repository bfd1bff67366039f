import { isChatChannel, type ChatChannelKind } from "#domain/chat";
import { attachmentAccept, attachmentTypesText } from "#domain/chat-attachments";
import { formatFileSize } from "#domain/courses";
import type { ChatAttachmentRules, ChatMessage, ChatMessagePage } from "#domain/contract/chat";
import type { ChatFileRules } from "~/common/forms/chat";
import { endpoints } from "#domain/contract/endpoints";
import type { DateFormatter } from "./format.server";
import { LmsError, type LmsClient } from "./lms.server";
import { type ChatMessageView, type ChatView } from "~/common/views/chat";

/** The channel named in the URL (`?channel=`), announcements by default (spec 2.5). */
export function chatChannelOf(url: URL): ChatChannelKind {
  const raw = url.searchParams.get("channel");
  return isChatChannel(raw) ? raw : "announcements";
}

/** The app's URL of a chat file (`/learn/chat-files/{id}`): the page's session reads it, not a bearer token. */
const chatFileUrl = (attachmentId: string) => `/learn/chat-files/${encodeURIComponent(attachmentId)}`;

export const chatMessageView = (m: ChatMessage, fmt: DateFormatter): ChatMessageView => ({
  ...m,
  time: fmt.dateTime(m.createdAt) ?? "",
  attachments: (m.attachments ?? []).map((a) => ({
    ...a,
    url: chatFileUrl(a.id),
    sizeText: formatFileSize(a.size),
    image: a.type.startsWith("image/"),
  })),
});

/** The API's rules as the form states and checks them (spec 5's {size} and {types}). */
const fileRules = (rules: ChatAttachmentRules): ChatFileRules => ({
  maxBytes: rules.maxBytes,
  maxCount: rules.maxCount,
  accept: attachmentAccept(rules.types),
  sizeText: formatFileSize(rules.maxBytes),
  typesText: attachmentTypesText(rules.types),
});

/**
 * The open channel of a course's hub: its channels with their unread counts and its newest messages
 * (two calls in parallel), then the read marker moved to the last message shown. `null` when the hub is
 * unavailable for this learner (the API answers 404 alike for every reason).
 */
export async function loadChat(
  lms: LmsClient,
  objectiveId: string,
  channel: ChatChannelKind,
  fmt: DateFormatter,
): Promise<ChatView | null> {
  let page: ChatMessagePage;
  let channels;
  try {
    [channels, page] = await Promise.all([
      lms.get(endpoints.chatChannels(objectiveId)),
      lms.get(endpoints.chatMessages(objectiveId, channel)),
    ]);
  } catch (err) {
    if (err instanceof LmsError && err.status === 404) return null;
    throw err;
  }
  const last = page.data.at(-1);
  // Opening the channel reads it: the badge counts what came after the last message shown.
  const markedRead = Boolean(last && last.seq > page.readSeq);
  // A read marker refused for too many requests is left for the next page: the chat still shows.
  if (last && markedRead)
    await lms.put(endpoints.chatRead(objectiveId, channel), { seq: last.seq }).catch((err: unknown) => {
      if (!(err instanceof LmsError && err.status === 429)) throw err;
    });
  return {
    markedRead,
    channel,
    channels: channels.data.map((c) => ({ kind: c.kind, unreadCount: c.kind === channel ? 0 : c.unreadCount })),
    mayPost: page.mayPost,
    messages: page.data.map((m) => chatMessageView(m, fmt)),
    lastVersion: page.lastVersion,
    commandId: crypto.randomUUID(),
    files: fileRules(page.attachmentRules),
  };
}
