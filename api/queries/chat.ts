// Reads of the communications hub (decision 027): who is in a course's channels, messages, unread counts.
import { and, asc, desc, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import {
  chatAttachments,
  chatChannels,
  chatMessages,
  chatReadMarkers,
  objectives,
  objectiveWorkflowAggregates as owa,
  userRoles,
  users,
} from "../db/schema";
import { notFound } from "../errors";
import type { Principal } from "../context";
import { mayPostIn, type ChatChannelKind } from "../../domain/chat";
import type { ChatMessage } from "../../domain/contract/chat";
import { toChatAttachment } from "../files/chat-attachments";

/**
 * The caller's standing in a course's hub: a course of their tenant with an announcement channel (the
 * hub is on), and the caller enrolled in it or an instructor. Anyone else: 404, whatever the reason.
 * One statement.
 */
export async function hubMember(db: Db | Tx, user: Principal, objectiveId: string) {
  const [row] = await db
    .select({
      id: objectives.id,
      enrolled: sql<boolean>`exists (select 1 from ${owa} where ${owa.userId} = ${user.id} and ${owa.objectiveId} = ${objectiveId})`,
      roles: sql<
        string[]
      >`coalesce((select array_agg(${userRoles.role}) from ${userRoles} where ${userRoles.userId} = ${user.id}), '{}')`,
    })
    .from(objectives)
    .where(
      and(
        eq(objectives.id, objectiveId),
        eq(objectives.tenantId, user.tenantId),
        sql`${objectives.announcementChannelId} is not null`,
      ),
    )
    .limit(1);
  if (!row) throw notFound("course");
  const instructor = row.roles.includes("Instructor");
  if (!row.enrolled && !instructor) throw notFound("course");
  return { objectiveId: row.id, roles: row.roles, mayPost: (kind: ChatChannelKind) => mayPostIn(kind, row.roles) };
}

/** A course's channel row, or null before its first message. */
export async function channelOf(db: Db | Tx, objectiveId: string, kind: ChatChannelKind) {
  const [row] = await db
    .select()
    .from(chatChannels)
    .where(and(eq(chatChannels.objectiveId, objectiveId), eq(chatChannels.kind, kind)))
    .limit(1);
  return row ?? null;
}

type AttachmentRow = { id: string; name: string; size: number; kind: string };

/**
 * A message's files in the message's own row (a correlated subquery, in order): a page of messages
 * stays one statement however many files they carry.
 */
const attachmentsOfMessage = sql<
  AttachmentRow[] | string
>`coalesce((select json_agg(json_build_object('id', ${chatAttachments.id}, 'name', ${chatAttachments.name}, 'size', ${chatAttachments.size}, 'kind', ${chatAttachments.kind}) order by ${chatAttachments.position}) from ${chatAttachments} where ${chatAttachments.messageId} = ${chatMessages.id}), '[]'::json)`;

const messageColumns = {
  id: chatMessages.id,
  seq: chatMessages.seq,
  version: chatMessages.version,
  userId: chatMessages.userId,
  body: chatMessages.body,
  createdAt: chatMessages.createdAt,
  editedAt: chatMessages.editedAt,
  deletedAt: chatMessages.deletedAt,
  firstName: users.firstName,
  lastName: users.lastName,
  attachments: attachmentsOfMessage,
};
type MessageRow = {
  id: string;
  seq: number;
  version: number;
  userId: string;
  body: string;
  createdAt: Date;
  editedAt: Date | null;
  deletedAt: Date | null;
  firstName: string;
  lastName: string;
  /** As PostgreSQL sent them (JSON text with some drivers). */
  attachments: AttachmentRow[] | string;
};

export function toChatMessage(row: MessageRow, viewerId: string): ChatMessage {
  const deleted = row.deletedAt !== null;
  const attachments =
    typeof row.attachments === "string" ? (JSON.parse(row.attachments) as AttachmentRow[]) : row.attachments;
  return {
    id: row.id,
    seq: Number(row.seq),
    version: Number(row.version),
    author: { id: row.userId, name: `${row.firstName} ${row.lastName}`.trim() },
    mine: row.userId === viewerId,
    body: deleted ? "" : row.body,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    deleted,
    attachments: deleted ? [] : attachments.map(toChatAttachment),
  };
}

/** The newest `limit` messages (oldest first), or every message changed after `after` (in change order). */
export async function channelMessages(
  db: Db,
  channelId: string,
  viewerId: string,
  opts: { after?: number; limit: number },
): Promise<ChatMessage[]> {
  const base = db
    .select(messageColumns)
    .from(chatMessages)
    .innerJoin(users, eq(users.id, chatMessages.userId))
    .$dynamic();
  if (opts.after !== undefined) {
    const rows = await base
      .where(and(eq(chatMessages.channelId, channelId), gt(chatMessages.version, opts.after)))
      .orderBy(asc(chatMessages.version))
      .limit(opts.limit);
    return rows.map((r) => toChatMessage(r, viewerId));
  }
  const rows = await base
    .where(eq(chatMessages.channelId, channelId))
    .orderBy(desc(chatMessages.seq))
    .limit(opts.limit);
  return rows.reverse().map((r) => toChatMessage(r, viewerId));
}

/** The reader's marker in a channel (0: nothing read). */
export async function readSeqOf(db: Db, channelId: string, userId: string): Promise<number> {
  const [row] = await db
    .select({ seq: chatReadMarkers.seq })
    .from(chatReadMarkers)
    .where(and(eq(chatReadMarkers.channelId, channelId), eq(chatReadMarkers.userId, userId)));
  return Number(row?.seq ?? 0);
}

/** Unread messages per channel of the given courses (one statement, whatever the number of channels). */
export async function unreadCounts(db: Db, userId: string, objectiveIds: string[] | null) {
  const unread = sql<number>`count(${chatMessages.id})::int`;
  const latest = sql<string>`max(${chatMessages.createdAt})`;
  const q = db
    .select({ objectiveId: chatChannels.objectiveId, kind: chatChannels.kind, unread, latest })
    .from(chatChannels)
    .leftJoin(chatReadMarkers, and(eq(chatReadMarkers.channelId, chatChannels.id), eq(chatReadMarkers.userId, userId)))
    .innerJoin(
      chatMessages,
      and(
        eq(chatMessages.channelId, chatChannels.id),
        gt(chatMessages.seq, sql`coalesce(${chatReadMarkers.seq}, 0)`),
        ne(chatMessages.userId, userId),
        isNull(chatMessages.deletedAt),
      ),
    )
    .$dynamic();
  const courses = objectiveIds
    ? inArray(chatChannels.objectiveId, objectiveIds)
    : sql`${chatChannels.objectiveId} in (select ${owa.objectiveId} from ${owa} where ${owa.userId} = ${userId})`;
  return q.where(courses).groupBy(chatChannels.objectiveId, chatChannels.kind);
}

/**
 * A stored attachment the caller may read: its message not deleted, its course of the caller's tenant;
 * the caller's membership of the course is `hubMember`'s to decide. Null for anything else.
 */
export async function readableAttachment(db: Db, attachmentId: string, tenantId: string) {
  const [row] = await db
    .select({
      name: chatAttachments.name,
      kind: chatAttachments.kind,
      path: chatAttachments.path,
      objectiveId: chatChannels.objectiveId,
    })
    .from(chatAttachments)
    .innerJoin(chatMessages, eq(chatMessages.id, chatAttachments.messageId))
    .innerJoin(chatChannels, eq(chatChannels.id, chatMessages.channelId))
    .where(
      and(eq(chatAttachments.id, attachmentId), isNull(chatMessages.deletedAt), eq(chatChannels.tenantId, tenantId)),
    )
    .limit(1);
  return row ?? null;
}
