import { isChatChannel, type ChatChannelKind } from "#domain/chat";
import { attachmentAccept, attachmentTypesText } from "#domain/chat-attachments";
import { formatFileSize } from "#domain/courses";
import type { ChatAttachment, ChatAttachmentRules, ChatMessage, ChatMessagePage } from "#domain/contract/chat";
import type { ChatFileRules } from "~/forms/chat";
import { endpoints } from "#domain/contract/endpoints";
import type { DateFormatter } from "./format.server";
import { LmsError, type LmsClient } from "./lms.server";

/** A file as the page links it: through the app's own origin and session, its size as spec 5 writes it. */
export interface ChatAttachmentView extends ChatAttachment {
  sizeText: string;
  image: boolean;
}

/** A message as the page shows it: the API's, with its time already formatted for the learner. */
export interface ChatMessageView extends Omit<ChatMessage, "attachments"> {
  time: string;
  attachments: ChatAttachmentView[];
}

interface ChatChannelView {
  kind: ChatChannelKind;
  unreadCount: number;
}

export interface ChatView {
  channel: ChatChannelKind;
  channels: ChatChannelView[];
  mayPost: boolean;
  messages: ChatMessageView[];
  /** Where the live stream resumes (the channel's last change number when the page was read). */
  lastVersion: number;
  /** Fresh per render: the next message's id, which makes a double submit one message. */
  commandId: string;
  /** This read moved the learner's read marker (the shell's unread badge changed). */
  markedRead: boolean;
  files: ChatFileRules;
}

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
  if (last && markedRead) await lms.put(endpoints.chatRead(objectiveId, channel), { seq: last.seq });
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
