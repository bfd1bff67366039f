/**
 * The operators' grading commands (issue 49, decision 058): `npm run grading -- list | grade …`. They run the
 * same query and command the grading API routes run (`gradingQueue`, `gradeHandIn`, with the grader named by
 * `--as`, whose rights are the API's: a tenant's Instructor, never her own hand-in), on the database or
 * through the running server's operator endpoint. A refusal is the API's own message.
 */
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Principal } from "../context";
import type { Db } from "../db/client";
import { features, objectives, users } from "../db/schema";
import { ApiError } from "../errors";
import { gradeHandIn } from "./hand-ins";
import { gradableHandIn, gradingQueue } from "../queries/hand-ins";

export const gradingCommand = z.discriminatedUnion("command", [
  z.object({
    command: z.literal("list"),
    as: z.email(),
    course: z.string().min(1).optional(),
    limit: z.number().int().min(1).max(200).default(100),
  }),
  z.object({
    command: z.literal("grade"),
    as: z.email(),
    handIn: z.uuid(),
    score: z.number().finite().min(0),
    comment: z.string().max(20_000).default(""),
    release: z.boolean().default(false),
  }),
]);

export class GradingCommandError extends Error {}

/** The grader as the API would see her (her tenant's licensed features with her). */
async function principalOf(db: Db, email: string): Promise<Principal> {
  const [user] = await db
    .select({ id: users.id, tenantId: users.tenantId, email: users.email })
    .from(users)
    .where(eq(users.email, email.toLowerCase()))
    .limit(1);
  if (!user) throw new GradingCommandError(`No user has the e-mail address ${email}.`);
  const rows = await db
    .select({ name: features.name, enabled: features.enabled })
    .from(features)
    .where(eq(features.tenantId, user.tenantId));
  return { ...user, features: Object.fromEntries(rows.map((f) => [f.name, f.enabled])) };
}

const refusalText = (err: ApiError) =>
  Object.values(err.errors)
    .flat()
    .map((m) => m.message)
    .join(" ") || err.message;

export async function runGradingCommand(db: Db, input: z.output<typeof gradingCommand>, now: Date) {
  const grader = await principalOf(db, input.as);
  try {
    if (input.command === "list") {
      let objectiveId: string | undefined;
      if (input.course) {
        const [course] = await db
          .select({ id: objectives.id })
          .from(objectives)
          .where(and(eq(objectives.tenantId, grader.tenantId), eq(objectives.code, input.course)))
          .limit(1);
        if (!course) throw new GradingCommandError(`No course has the code ${input.course}.`);
        objectiveId = course.id;
      }
      const queue = await gradingQueue(db, grader, { objectiveId, limit: input.limit });
      return queue.data;
    }
    const { row } = await gradableHandIn(db, grader, input.handIn);
    return await db.transaction((tx) =>
      gradeHandIn(
        tx,
        grader,
        {
          id: crypto.randomUUID(),
          handInId: input.handIn,
          score: input.score,
          comment: input.comment,
          release: input.release,
          version: row.gradingVersion,
        },
        [],
        now,
      ),
    );
  } catch (err) {
    if (err instanceof ApiError) throw new GradingCommandError(refusalText(err));
    throw err;
  }
}
