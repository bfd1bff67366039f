// Chat commands (decision 027): post, edit and delete a message. Each change takes the channel's next
// number under the channel row's lock, so numbers commit in order (a resumed stream misses nothing).
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../db/client";
import { chatAttachments, chatChannels, chatMessages, users } from "../db/schema";
import { ApiError, message, notFound } from "../errors";
import type { ChatChannelKind } from "../../domain/chat";
import type { ChatMessage } from "../../domain/contract/chat";
import { toChatMessage } from "../queries/chat";

/** The channel's next change number; the channel row is made on first use. Locks the row until commit. */
async function nextNumber(tx: Tx, tenantId: string, objectiveId: string, kind: ChatChannelKind) {
  await tx.insert(chatChannels).values({ tenantId, objectiveId, kind }).onConflictDoNothing();
  const [row] = await tx
    .update(chatChannels)
    .set({ lastSeq: sql`${chatChannels.lastSeq} + 1` })
    .where(and(eq(chatChannels.objectiveId, objectiveId), eq(chatChannels.kind, kind)))
    .returning({ id: chatChannels.id, n: chatChannels.lastSeq });
  return { channelId: row.id, n: Number(row.n) };
}

async function authorName(tx: Tx, userId: string) {
  const [row] = await tx
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** A checked file to record with its message (its bytes are stored by the caller, in the same transaction). */
interface AttachmentInput {
  id: string;
  name: string;
  size: number;
  kind: string;
  path: string;
}

export async function postChatMessage(
  tx: Tx,
  input: {
    id: string;
    tenantId: string;
    objectiveId: string;
    kind: ChatChannelKind;
    userId: string;
    body: string;
    attachments?: AttachmentInput[];
  },
  now: Date,
): Promise<ChatMessage> {
  const { channelId, n } = await nextNumber(tx, input.tenantId, input.objectiveId, input.kind);
  const [created] = await tx
    .insert(chatMessages)
    .values({ id: input.id, channelId, userId: input.userId, seq: n, version: n, body: input.body, createdAt: now })
    .onConflictDoNothing()
    .returning();
  if (!created) throw new ApiError(409, { id: [message("commandIdReused", "This message id was already used.")] });
  const files = input.attachments ?? [];
  if (files.length)
    await tx.insert(chatAttachments).values(
      files.map(({ id, name, size, kind, path }, position) => ({
        id,
        messageId: input.id,
        position,
        name,
        size,
        kind,
        path,
      })),
    );
  return toChatMessage({ ...created, ...(await authorName(tx, input.userId)), attachments: files }, input.userId);
}

/** The author's own message, edited (`body`) or deleted (`null`); anyone else's: 404. */
export async function editChatMessage(
  tx: Tx,
  input: { tenantId: string; userId: string; messageId: string; body: string | null },
  now: Date,
): Promise<ChatMessage> {
  const [target] = await tx
    .select({ channelId: chatMessages.channelId, objectiveId: chatChannels.objectiveId, kind: chatChannels.kind })
    .from(chatMessages)
    .innerJoin(chatChannels, eq(chatChannels.id, chatMessages.channelId))
    .where(
      and(
        eq(chatMessages.id, input.messageId),
        eq(chatMessages.userId, input.userId),
        eq(chatChannels.tenantId, input.tenantId),
        sql`${chatMessages.deletedAt} is null`,
      ),
    )
    .limit(1);
  if (!target) throw notFound("message");
  const { n } = await nextNumber(tx, input.tenantId, target.objectiveId, target.kind as ChatChannelKind);
  const [row] = await tx
    .update(chatMessages)
    .set(input.body === null ? { version: n, deletedAt: now } : { version: n, body: input.body, editedAt: now })
    .where(eq(chatMessages.id, input.messageId))
    .returning();
  const files =
    input.body === null
      ? []
      : await tx
          .select({
            id: chatAttachments.id,
            name: chatAttachments.name,
            size: chatAttachments.size,
            kind: chatAttachments.kind,
          })
          .from(chatAttachments)
          .where(eq(chatAttachments.messageId, input.messageId))
          .orderBy(chatAttachments.position);
  return toChatMessage({ ...row, ...(await authorName(tx, input.userId)), attachments: files }, input.userId);
}
