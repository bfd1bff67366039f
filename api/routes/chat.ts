import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import { sql } from "drizzle-orm";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { runCommand } from "../commands/run";
import { editChatMessage, postChatMessage } from "../commands/chat";
import { chatReadMarkers } from "../db/schema";
import { channelMessages, channelOf, hubMember, readSeqOf, unreadCounts } from "../queries/chat";
import { unreadNotifications } from "../notifications/learner-notifications";
import { ApiError, message } from "../errors";
import { jsonBody, validJson, validParams, validQuery } from "../validate";
import { operations } from "../openapi";
import { limitWrites } from "../limit-writes";
import {
  attachmentRulesOf,
  readChatUpload,
  removeStored,
  storeAttachments,
  type IncomingAttachment,
} from "../files/chat-attachments";
import { fileStore } from "../files/roots";
import { log } from "../db/log";
import { CHAT_CHANNELS, type ChatChannelKind } from "../../domain/chat";
import {
  CHAT_ATTACHMENTS_FIELD,
  chatChannelPathSchema,
  chatCoursePathSchema,
  createChatMessageFieldsSchema,
  chatMessagesQuerySchema,
  chatReadSchema,
  createChatMessageSchema,
  editChatMessageSchema,
  type CreateChatMessage,
  type ChatChannels,
  type ChatMessagePage,
  type ChatUnread,
} from "../../domain/contract/chat";

const op = operations("chat");

const signedIn = createMiddleware<ApiEnv>(async (c, next) => {
  if (c.get("user")) return next();
  return requireUser(c, next);
});

/** Refuses (404 not a member, 403 a read-only channel) a caller who may not post to the message's channel. */
const mayPost = (c: Context<ApiEnv>) => async (fields: CreateChatMessage) => {
  const member = await hubMember(c.var.db, c.var.user, fields.objectiveId);
  if (!member.mayPost(fields.channel))
    throw new ApiError(403, { "": [message("chatReadOnly", "Only instructors post announcements.")] });
};

/** The communications hub (spec 2.5, issue 16 items 1–3, decision 027). Thin handlers. */
export function chatRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("/users/me/chat/*", signedIn);
  r.use("/users/me/objectives/*", signedIn);
  for (const path of ["/create-chat-messages", "/edit-chat-messages"]) {
    r.use(path, signedIn);
    r.use(path, limitWrites("chat"));
  }
  r.use("/users/me/objectives/:objectiveId/channels/:kind/read", limitWrites("chatRead"));

  // The unread total of the shell: every channel of the caller's courses, one statement.
  r.get(
    "/users/me/chat/unread",
    op({
      summary:
        "Unread chat messages over the learner's courses (the shell's badge), and the course and channel of the newest",
      notShown: true,
    }),
    async (c) => {
      const [chat, graded] = await Promise.all([
        unreadCounts(c.var.db, c.var.user.id, null),
        unreadNotifications(c.var.db, c.var.user.id),
      ]);
      // Decision 058: a released grade counts too; the course's hub lists it beside the announcements.
      const rows = [...chat, ...graded.map((g) => ({ ...g, kind: "announcements" }))];
      // The course of the newest unread message: where the shell's badge leads.
      const newest = rows.reduce<(typeof rows)[number] | null>(
        (best, row) => (!best || Date.parse(row.latest) > Date.parse(best.latest) ? row : best),
        null,
      );
      return c.json({
        total: rows.reduce((n, row) => n + row.unread, 0),
        objectiveId: newest?.objectiveId ?? null,
        channel: (newest?.kind as ChatChannelKind | undefined) ?? null,
      } satisfies ChatUnread);
    },
  );

  // A course's channels with their unread counts (the Notifications layer's badge).
  r.get(
    "/users/me/objectives/:objectiveId/channels",
    op({
      summary: "A course's channels (announcements, chat) with unread counts and whether the caller may post",
      notShown: true,
    }),
    validParams(chatCoursePathSchema),
    async (c) => {
      const { objectiveId } = c.req.valid("param");
      const member = await hubMember(c.var.db, c.var.user, objectiveId);
      const rows = await unreadCounts(c.var.db, c.var.user.id, [objectiveId]);
      const unread = new Map(rows.map((row) => [row.kind, row.unread]));
      return c.json({
        data: CHAT_CHANNELS.map((kind) => ({
          kind,
          unreadCount: unread.get(kind) ?? 0,
          mayPost: member.mayPost(kind),
        })),
      } satisfies ChatChannels);
    },
  );

  r.get(
    "/users/me/objectives/:objectiveId/channels/:kind/messages",
    op({
      summary:
        "A channel's newest messages, or (after) every message changed after a change number, each with its attachments {id, name, size, type, url}; with the attachment rules (maxBytes, maxCount, types)",
      notShown: true,
    }),
    validParams(chatChannelPathSchema),
    validQuery(chatMessagesQuerySchema),
    async (c) => {
      const { objectiveId, kind } = c.req.valid("param");
      const q = c.req.valid("query");
      const db = c.var.db;
      const [member, channel] = await Promise.all([
        hubMember(db, c.var.user, objectiveId),
        channelOf(db, objectiveId, kind),
      ]);
      const [data, readSeq] = channel
        ? await Promise.all([
            channelMessages(db, channel.id, c.var.user.id, q),
            readSeqOf(db, channel.id, c.var.user.id),
          ])
        : [[], 0];
      return c.json({
        kind,
        channelId: channel?.id ?? null,
        mayPost: member.mayPost(kind),
        readSeq,
        lastVersion: Number(channel?.lastSeq ?? 0),
        data,
        attachmentRules: (({ maxBytes, maxCount, kinds }) => ({ maxBytes, maxCount, types: kinds }))(
          attachmentRulesOf(c),
        ),
      } satisfies ChatMessagePage);
    },
  );

  // Read up to a message: the marker only moves forward and never past the channel's last message.
  r.put(
    "/users/me/objectives/:objectiveId/channels/:kind/read",
    op({ summary: "Read a channel up to a message (the marker only moves forward)", notShown: true }),
    validParams(chatChannelPathSchema),
    validJson(chatReadSchema),
    async (c) => {
      const { objectiveId, kind } = c.req.valid("param");
      const { seq } = c.req.valid("json");
      const db = c.var.db;
      const [, channel] = await Promise.all([hubMember(db, c.var.user, objectiveId), channelOf(db, objectiveId, kind)]);
      if (!channel) return c.json({ seq: 0 });
      const upTo = Math.min(seq, Number(channel.lastSeq));
      await db
        .insert(chatReadMarkers)
        .values({ userId: c.var.user.id, channelId: channel.id, seq: upTo, updatedAt: c.var.now })
        .onConflictDoUpdate({
          target: [chatReadMarkers.userId, chatReadMarkers.channelId],
          set: { seq: sql`greatest(${chatReadMarkers.seq}, excluded.seq)`, updatedAt: c.var.now },
        });
      return c.json({ seq: upTo });
    },
  );

  // JSON (text only), or multipart/form-data with files (issue 16 item 3): the files are checked before
  // anything is written, and stored in the command's transaction after the message's rows.
  r.post(
    "/create-chat-messages",
    op({
      summary: "Post a message (idempotent by id), as JSON or as multipart/form-data with files",
      description:
        "As multipart/form-data it carries files in the field `attachments` (by default at most 3, each at most 10 MB, of the types pdf, png, jpeg, gif, webp, txt, docx, xlsx, pptx, zip: CHAT_ATTACHMENT_*); each file's type is read from its name and confirmed by its contents. Refusals are 400 with errors.attachments: attachmentTooLarge, attachmentType, attachmentCount",
      body: { type: "application/json", description: "The message (text only)", schema: createChatMessageSchema },
      multipart: { fields: createChatMessageFieldsSchema, files: CHAT_ATTACHMENTS_FIELD },
      command: true,
      errors: { 403: "Only instructors post announcements (chatReadOnly)" },
      notShown: true,
    }),
    async (c) => {
      const multipart = (c.req.header("content-type") ?? "").startsWith("multipart/form-data");
      let body: CreateChatMessage;
      let files: IncomingAttachment[] = [];
      let fingerprint: unknown;
      // Issue 29 item 2: with files, who may post where is checked on the text fields, before the files are read.
      if (multipart) ({ fields: body, files, fingerprint } = await readChatUpload(c, attachmentRulesOf(c), mayPost(c)));
      else await mayPost(c)((fingerprint = body = await jsonBody(c, createChatMessageSchema)));
      const user = c.var.user;
      const written: string[] = [];
      try {
        return await runCommand(c, { id: body.id, type: "create-chat-message", body: fingerprint }, async (tx) => {
          const posted = await postChatMessage(
            tx,
            { ...body, kind: body.channel, tenantId: user.tenantId, userId: user.id, attachments: files },
            c.var.now,
          );
          await storeAttachments(fileStore(c.var.deps), files, written);
          return posted;
        });
      } catch (err) {
        // The message did not commit: neither do its files.
        await removeStored(fileStore(c.var.deps), written).catch((error: unknown) =>
          log().warn({ err: error, keys: written }, "chat: files of a message that did not commit were not removed"),
        );
        throw err;
      }
    },
  );

  r.post(
    "/edit-chat-messages",
    op({
      summary: "Edit (body) or delete (body: null) one's own message; a deleted message's files are no longer served",
      command: true,
      notShown: true,
    }),
    validJson(editChatMessageSchema),
    async (c) => {
      const body = c.req.valid("json");
      const user = c.var.user;
      return runCommand(c, { id: body.id, type: "edit-chat-message", body }, async (tx) => {
        const edited = await editChatMessage(
          tx,
          { tenantId: user.tenantId, userId: user.id, messageId: body.messageId, body: body.body },
          c.var.now,
        );
        return edited;
      });
    },
  );

  return r;
}
