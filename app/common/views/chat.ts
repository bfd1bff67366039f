/** The course chat as the page shows it (`chat.server.ts` makes it, `<Chat>` renders it). */
import type { ChatChannelKind } from "#domain/chat";
import type { ChatAttachment, ChatMessage } from "#domain/contract/chat";
import type { ChatFileRules } from "../forms/chat";

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
