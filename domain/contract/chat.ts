import { z } from "zod";
import { CHAT_BODY_MAX } from "../limits";
import { CHAT_CHANNELS, type ChatChannelKind } from "../chat";
import type { AttachmentKind } from "../chat-attachments";

/** Newest messages a page shows when it opens a channel; the live stream adds the rest. */
const CHAT_PAGE_SIZE = 50;

/** POST /create-chat-messages: `id` is the new message's id and the command's key (a double submit is one message). */
export const createChatMessageSchema = z.object({
  id: z.uuid(),
  objectiveId: z.uuid(),
  channel: z.enum(CHAT_CHANNELS),
  body: z.string().trim().min(1).max(CHAT_BODY_MAX),
});
export type CreateChatMessage = z.infer<typeof createChatMessageSchema>;

/**
 * The same command as `multipart/form-data` with files (issue 16 item 3): these text fields, and up to
 * the channel's `maxCount` files in fields named `attachments`. The text may then be empty.
 */
export const createChatMessageFieldsSchema = createChatMessageSchema.extend({
  body: z.string().trim().max(CHAT_BODY_MAX).default(""),
});
/** The multipart field that carries the files. */
export const CHAT_ATTACHMENTS_FIELD = "attachments";

/** POST /edit-chat-messages: the author changes (`body`) or deletes (`body: null`) a message of theirs. */
export const editChatMessageSchema = z.object({
  id: z.uuid(),
  messageId: z.uuid(),
  body: z.string().trim().min(1).max(CHAT_BODY_MAX).nullable(),
});

/** GET …/messages: without `after` the newest page; with it, every message changed after that number. */
export const chatMessagesQuerySchema = z.object({
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(CHAT_PAGE_SIZE),
});

/** `users/me/objectives/{objectiveId}/channels…`: a course. */
export const chatCoursePathSchema = z.object({ objectiveId: z.uuid() });
/** `…/channels/{kind}/…`: a course and one of its channels. */
export const chatChannelPathSchema = chatCoursePathSchema.extend({ kind: z.enum(CHAT_CHANNELS) });

/** PUT …/read: read up to `seq` (a number beyond the last message reads everything). */
export const chatReadSchema = z.object({ seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });
export type ChatRead = z.infer<typeof chatReadSchema>;

/** A file a message carries; `url` reads it (GET, HEAD for its size, ranges) — members of the channel only. */
export interface ChatAttachment {
  id: string;
  /** The file's name as sent (its last path segment, spec-safe characters). */
  name: string;
  /** Bytes. */
  size: number;
  /** The checked media type ("image/png", "application/pdf"…), not the one the browser declared. */
  type: string;
  url: string;
}

/** What files a message may carry (the API's rules, shown by the page before sending). */
export interface ChatAttachmentRules {
  maxBytes: number;
  maxCount: number;
  types: AttachmentKind[];
}

export interface ChatMessage {
  id: string;
  /** Place in the channel (posting order). */
  seq: number;
  /** Number of the message's last change (post, edit, deletion): the event id of the live stream. */
  version: number;
  author: { id: string; name: string };
  mine: boolean;
  /** Plain text; empty once deleted. */
  body: string;
  createdAt: string;
  editedAt: string | null;
  deleted: boolean;
  /** In the order sent; none once deleted. */
  attachments: ChatAttachment[];
}

interface ChatChannelSummary {
  kind: ChatChannelKind;
  unreadCount: number;
  mayPost: boolean;
}

export interface ChatChannels {
  data: ChatChannelSummary[];
}

export interface ChatMessagePage {
  kind: ChatChannelKind;
  /** The channel's id (its change notices are "chat:<id>"), null before its first message. */
  channelId: string | null;
  mayPost: boolean;
  /** The reader's marker before this page was read. */
  readSeq: number;
  /** The channel's last change number: resume the live stream after it. */
  lastVersion: number;
  /** Oldest first. */
  data: ChatMessage[];
  attachmentRules: ChatAttachmentRules;
}

export interface ChatUnread {
  total: number;
  /** The course and channel of the newest unread message (null when none). */
  objectiveId: string | null;
  channel: ChatChannelKind | null;
}
