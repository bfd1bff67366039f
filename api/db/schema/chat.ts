import {
  bigint,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { objectives } from "./courses";
import { tenants, users } from "./platform";

/**
 * The communications hub (decision 027): a course's channels, made when first used. `kind` is
 * "announcements" (the course's `announcementChannelId`; instructors post, learners read) or "chat"
 * (learners and instructors of the course). `lastSeq` numbers every change of the channel: a post or
 * an edit takes the next number under the channel row's lock, so numbers commit in order and a client
 * that resumes after number N misses nothing.
 */
export const chatChannels = pgTable(
  "chat_channels",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    lastSeq: bigint("last_seq", { mode: "number" }).notNull().default(0),
  },
  (t) => [uniqueIndex("chat_channels_objective_kind_idx").on(t.objectiveId, t.kind)],
);

/** A message: plain text; `seq` is its place in the channel, `version` the number of its last change. */
export const chatMessages = pgTable(
  "chat_messages",
  {
    id: uuid("id").primaryKey(),
    channelId: uuid("channel_id")
      .notNull()
      .references(() => chatChannels.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull(),
    version: bigint("version", { mode: "number" }).notNull(),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    editedAt: timestamp("edited_at", { withTimezone: true }),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("chat_messages_channel_seq_idx").on(t.channelId, t.seq),
    index("chat_messages_channel_version_idx").on(t.channelId, t.version),
  ],
);

/**
 * A file a message carries (issue 16 item 3): stored under DATA_DIR/storage at `path`, written in the
 * transaction that adds the message. `kind` is the checked type (domain/chat-attachments.ts), never the
 * browser's declared one. A deleted message's files are no longer served.
 */
export const chatAttachments = pgTable(
  "chat_attachments",
  {
    id: uuid("id").primaryKey(),
    messageId: uuid("message_id")
      .notNull()
      .references(() => chatMessages.id, { onDelete: "cascade" }),
    position: smallint("position").notNull(),
    name: text("name").notNull(),
    size: integer("size").notNull(),
    kind: text("kind").notNull(),
    path: text("path").notNull(),
  },
  (t) => [uniqueIndex("chat_attachments_message_position_idx").on(t.messageId, t.position)],
);

/** How far a user has read a channel (the `seq` of the last message seen). */
export const chatReadMarkers = pgTable(
  "chat_read_markers",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    channelId: uuid("channel_id")
      .notNull()
      .references(() => chatChannels.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channelId] })],
);
