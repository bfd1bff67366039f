/**
 * Messages already in the demo courses' communications hubs (course.json `messages`, decision 027):
 * each channel's row with its last change number, and its messages numbered oldest first, as the
 * chat commands would have numbered them. Written by the demo accounts, so none without them.
 */
import type { CourseDef } from "./demo-content";
import type { DemoUser } from "./content/schemas";
import * as s from "../api/db/schema";
import { daysFrom } from "./recipe-values";
import type { Tx } from "./seed-activities";

export async function seedHubMessages(
  tx: Tx,
  input: {
    tenantId: string;
    courses: CourseDef[];
    objectiveIds: Record<string, string>;
    userIds: Record<DemoUser, string>;
    now: Date;
  },
): Promise<void> {
  const channels: (typeof s.chatChannels.$inferInsert)[] = [];
  const messages: (typeof s.chatMessages.$inferInsert)[] = [];
  for (const course of input.courses) {
    for (const kind of ["announcements", "chat"] as const) {
      const written = [...(course.messages?.[kind] ?? [])]
        .filter((m) => input.userIds[m.by])
        .sort((a, b) => b.daysAgo - a.daysAgo);
      if (written.length === 0) continue;
      const channelId = crypto.randomUUID();
      channels.push({
        id: channelId,
        tenantId: input.tenantId,
        objectiveId: input.objectiveIds[course.slug],
        kind,
        lastSeq: written.length,
      });
      written.forEach((m, i) =>
        messages.push({
          id: crypto.randomUUID(),
          channelId,
          userId: input.userIds[m.by],
          seq: i + 1,
          version: i + 1,
          body: m.body,
          createdAt: daysFrom(input.now, -m.daysAgo)!,
        }),
      );
    }
  }
  if (channels.length) await tx.insert(s.chatChannels).values(channels);
  if (messages.length) await tx.insert(s.chatMessages).values(messages);
}
