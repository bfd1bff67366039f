// Demo groups (tenant.json `groups`, decision 026): a mini-group or team, tenant-wide or within a course
// (`course`, a course folder) and, for a team, one activity of it (`activity`, its name).
import { and, eq } from "drizzle-orm";
import type { Tx } from "../api/db/client";
import * as s from "../api/db/schema";
import type { DemoContent } from "./demo-content";

type GroupDef = NonNullable<DemoContent["tenant"]["groups"]>[number];

/** Where a group works: its course and activity part ids (null = anywhere). One statement at most. */
async function scopeOf(tx: Tx, tenantId: string, content: DemoContent, g: GroupDef) {
  if (!g.course) return { objectiveId: null, activityPartId: null };
  const code = content.courses.find((c) => c.slug === g.course)!.code;
  const rows = await tx
    .select({ objectiveId: s.objectives.id, activityPartId: s.activityParts.id, name: s.activities.name })
    .from(s.objectives)
    .innerJoin(s.activityParts, eq(s.activityParts.objectiveId, s.objectives.id))
    .innerJoin(s.activities, eq(s.activities.id, s.activityParts.activityId))
    .where(and(eq(s.objectives.tenantId, tenantId), eq(s.objectives.code, code)));
  if (rows.length === 0) throw new Error(`group "${g.name}": course ${g.course} is not seeded`);
  const part = g.activity ? rows.find((r) => r.name === g.activity) : undefined;
  if (g.activity && !part) throw new Error(`group "${g.name}": no activity "${g.activity}" in ${g.course}`);
  return { objectiveId: rows[0].objectiveId, activityPartId: part?.activityPartId ?? null };
}

/** Inserts one group with its members (user ids). */
export async function insertGroup(
  tx: Tx,
  tenantId: string,
  content: DemoContent,
  g: GroupDef,
  memberIds: string[],
): Promise<string> {
  const scope = await scopeOf(tx, tenantId, content, g);
  const [row] = await tx
    .insert(s.groups)
    .values({ tenantId, name: g.name, kind: g.kind, ...scope })
    .returning({ id: s.groups.id });
  if (memberIds.length > 0)
    await tx.insert(s.groupMembers).values(memberIds.map((userId) => ({ groupId: row.id, userId })));
  return row.id;
}
