/**
 * Pointing a course's activity at a registered LTI tool (issue 32 item 2): what
 * `npm run lti:tool -- attach|detach` does, on the database directly or through the running server
 * (`/operator/v1/lti-attachments`). Every refusal says why and changes nothing; attaching what is
 * attached already changes nothing either.
 */
import { isDeepStrictEqual } from "node:util";
import { and, eq, isNull, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { ActivityContentType, ActivityKind } from "../../domain/vocabulary";
import type { Db } from "../db/client";
import { activities, activityParts, objectives } from "../db/schema";
import type { LtiTool } from "./registry";

/** A refusal of the operator's command: its reason, and nothing changed. */
export class AttachError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** LTI custom parameters (LTI Core §5.4.5): names and values the operator gives with `--custom k=v`. */
const customParamsSchema = z
  .record(
    z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, "a custom parameter's name is letters, digits, _ . -"),
    z.string().max(1000),
  )
  .refine((r) => Object.keys(r).length <= 50, "at most 50 custom parameters");

export const attachmentCommand = z.discriminatedUnion("command", [
  z.object({
    command: z.literal("attach"),
    key: z.string().min(1).max(63),
    course: z.string().min(1).max(200),
    activity: z.string().min(1).max(200).optional(),
    custom: customParamsSchema.default({}),
  }),
  z.object({
    command: z.literal("detach"),
    key: z.string().min(1).max(63),
    course: z.string().min(1).max(200),
    activity: z.string().min(1).max(200).optional(),
  }),
]);
export type AttachmentCommand = z.infer<typeof attachmentCommand>;

export interface AttachmentResult {
  course: string;
  activityId: string;
  activityCode: string;
  activityName: string;
  tool: string | null;
  custom: Record<string, string>;
  /** False when the activity was already as asked. */
  changed: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The course by its code (one tenant's), and the activity: the one named by id or code, else the root. */
async function targetActivity(db: Db, courseCode: string, activity: string | undefined) {
  const [course, second] = await db
    .select({ id: objectives.id })
    .from(objectives)
    .where(eq(objectives.code, courseCode))
    .limit(2);
  if (second) throw new AttachError("ambiguousCourse", `Two tenants have a course "${courseCode}".`);
  if (!course) throw new AttachError("unknownCourse", `No course has the code "${courseCode}".`);
  let which: SQL | undefined = isNull(activityParts.parentPartId);
  if (activity)
    which = UUID.test(activity)
      ? or(eq(activityParts.activityId, activity), eq(activities.code, activity))
      : eq(activities.code, activity);
  const rows = await db
    .select({ activity: activities, partId: activityParts.id })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .where(and(eq(activityParts.objectiveId, course.id), which))
    .limit(2);
  if (rows.length === 0)
    throw new AttachError(
      "unknownActivity",
      activity
        ? `The course "${courseCode}" has no activity "${activity}" (give its id or its code).`
        : `The course "${courseCode}" has no activities.`,
    );
  if (rows.length > 1)
    throw new AttachError(
      "ambiguousActivity",
      `Two activities of "${courseCode}" have the code "${activity}": give the id.`,
    );
  const a = rows[0]!.activity;
  if (a.kind === ActivityKind.composite) {
    const inside = await ltiActivitiesUnder(db, course.id, rows[0]!.partId);
    throw new AttachError(
      "compositeActivity",
      inside.length
        ? `"${a.name}" is a module: name one of its LTI activities with --activity (its id or its code): ${inside.join("; ")}.`
        : `"${a.name}" is a module and holds no LTI activity.`,
    );
  }
  if (a.kind !== ActivityKind.lti)
    throw new AttachError("notLti", `"${a.name}" is not an LTI activity; only an LTI activity launches a tool.`);
  if ((a.content as { scorm?: unknown }).scorm)
    throw new AttachError("scormActivity", `"${a.name}" plays a SCORM package; it cannot launch a tool as well.`);
  return a;
}

/** The LTI activities (not SCORM players) inside a module, in course order, as "code (name)" or "id (name)". */
async function ltiActivitiesUnder(db: Db, objectiveId: string, modulePartId: string): Promise<string[]> {
  const parts = await db
    .select({
      id: activityParts.id,
      parent: activityParts.parentPartId,
      kind: activities.kind,
      code: activities.code,
      activityId: activities.id,
      name: activities.name,
      content: activities.content,
    })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .where(eq(activityParts.objectiveId, objectiveId))
    .orderBy(activityParts.order);
  const children = new Map<string | null, typeof parts>();
  for (const p of parts) children.set(p.parent, [...(children.get(p.parent) ?? []), p]);
  const found: string[] = [];
  const walk = (partId: string) => {
    for (const p of children.get(partId) ?? []) {
      if (p.kind === ActivityKind.lti && !(p.content as { scorm?: unknown } | null)?.scorm)
        found.push(`${p.code ?? p.activityId} (${p.name})`);
      walk(p.id);
    }
  };
  walk(modulePartId);
  return found;
}

/**
 * Attaches `tool` (already checked to be registered) to the activity: `content.tool` and its custom
 * parameters, the content type of the tool's LTI version. What the activity held besides stays. (An
 * LTI activity has no pages for the tutor's index, so nothing is re-indexed.)
 */
async function attachTool(
  db: Db,
  tool: Pick<LtiTool, "key" | "version">,
  command: { course: string; activity?: string; custom: Record<string, string> },
): Promise<AttachmentResult> {
  const a = await targetActivity(db, command.course, command.activity);
  const content = (a.content ?? {}) as Record<string, unknown>;
  const contentType = tool.version === "1.1" ? ActivityContentType.Lti11 : ActivityContentType.Lti13;
  const { custom: _previous, ...rest } = content;
  const next = { ...rest, tool: tool.key, ...(Object.keys(command.custom).length ? { custom: command.custom } : {}) };
  // (jsonb keeps keys in an order of its own: compared as values, not as text.)
  const changed = !isDeepStrictEqual(next, content) || a.contentType !== contentType;
  if (changed) await db.update(activities).set({ content: next, contentType }).where(eq(activities.id, a.id));
  return {
    course: command.course,
    activityId: a.id,
    activityCode: a.code,
    activityName: a.name,
    tool: tool.key,
    custom: command.custom,
    changed,
  };
}

/** Detaches the tool `key` from the activity; an activity that points at another tool is refused. */
async function detachTool(
  db: Db,
  command: { key: string; course: string; activity?: string },
): Promise<AttachmentResult> {
  const a = await targetActivity(db, command.course, command.activity);
  const content = (a.content ?? {}) as Record<string, unknown>;
  const base = { course: command.course, activityId: a.id, activityCode: a.code, activityName: a.name, custom: {} };
  if (content.tool === undefined) return { ...base, tool: null, changed: false };
  if (content.tool !== command.key)
    throw new AttachError(
      "otherTool",
      `"${a.name}" launches the tool "${String(content.tool)}", not "${command.key}": nothing was detached.`,
    );
  const { tool: _tool, custom: _custom, ...rest } = content;
  await db.update(activities).set({ content: rest }).where(eq(activities.id, a.id));
  return { ...base, tool: null, changed: true };
}

/** Runs the operator's command against a registry (`byKey`): an unregistered key is refused. */
export async function runAttachmentCommand(
  db: Db,
  registry: { byKey(key: string): LtiTool | null },
  command: AttachmentCommand,
): Promise<AttachmentResult> {
  if (command.command === "detach") return detachTool(db, command);
  const tool = registry.byKey(command.key);
  if (!tool)
    throw new AttachError(
      "unknownTool",
      `No tool "${command.key}" is registered: add it first with npm run lti:tool -- add --key ${command.key} ….`,
    );
  return attachTool(db, tool, command);
}
