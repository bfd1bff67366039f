/**
 * A fresh learner for one browser test (decision 014): the test-support endpoint's request — a demo
 * user to be like and/or enrolments of its own — made into an account with the demo learners' recipes
 * (seed-learners.ts), in the demo tenant or, for other licensed features, in a copy of it.
 */
import { randomBytes } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../api/db/client";
import * as s from "../api/db/schema";
import { checkRecipe, demoContent } from "./demo-content";
import { DemoContentError } from "./content/files";
import { enrolmentSchema, type DemoUserDef } from "./content/schemas";
import { hashPassword } from "../identity/password";
import { applyLearnerRecipes, insertUser } from "./seed-learners";

/** The test-support endpoint's body: a demo user to be like, and/or enrolments of its own. */
export const learnerRequestSchema = z.strictObject({
  /** A demo user (users.json) whose account settings and recipe the learner gets. */
  like: z.string().optional(),
  /** Enrolments besides the ones `like` brings (same shape as learners/<user>.json). */
  enrolments: z.array(enrolmentSchema).max(100).optional(),
  firstName: z.string().trim().min(1).max(100).optional(),
  lastName: z.string().trim().min(1).max(100).optional(),
  timezone: z.string().trim().min(1).max(100).nullable().optional(),
  /**
   * Licensed features other than the demo tenant's (e.g. `{ "calendar": false }`): the learner gets
   * a tenant of its own — a copy of the demo tenant's settings, features and units, no courses — so
   * a browser test can see what a tenant without a feature sees (spec 2.10's 501 page).
   */
  features: z.record(z.string().regex(/^[A-Za-z]{1,40}$/), z.boolean()).optional(),
  /** Another test learner whose groups (team, mini-group) this one joins, instead of copies of `like`'s. */
  joinGroupsOf: z.uuid().optional(),
});
export type LearnerRequest = z.output<typeof learnerRequestSchema>;

export interface CreatedLearner {
  id: string;
  email: string;
  password: string;
  name: string;
  /** The reinforcement questions the recipe scheduled (the e-mail answer page's tests open their links). */
  reinforcement: { id: string; options: { id: string; text: string }[]; correctAnswer: string }[];
}

/** A learner without a `like`: the demo tenant's first unit, the Learner role and the LMS licence. */
function plainLearner(unit: string): Omit<DemoUserDef, "email"> {
  return {
    firstName: "Test",
    lastName: "Learner",
    roles: ["Learner"],
    licences: ["LMS"],
    department: unit,
    units: [unit],
  };
}

/** A new tenant with the settings, features (some overridden) and units of `fromId`; its id. */
async function copyTenant(db: Db, fromId: string, features: Record<string, boolean>): Promise<string> {
  return db.transaction(async (tx) => {
    const suffix = randomBytes(6).toString("hex");
    const [tenant] = await tx
      .insert(s.tenants)
      .values({ name: `Test tenant ${suffix}`, domain: `tenant-${suffix}.example.com` })
      .returning({ id: s.tenants.id });
    const [settings, known, units] = await Promise.all([
      tx.select().from(s.settings).where(eq(s.settings.tenantId, fromId)),
      tx.select().from(s.features).where(eq(s.features.tenantId, fromId)),
      tx.select({ name: s.units.name }).from(s.units).where(eq(s.units.tenantId, fromId)),
    ]);
    if (settings.length) await tx.insert(s.settings).values(settings.map((row) => ({ ...row, tenantId: tenant.id })));
    const merged = new Map(known.map((row) => [row.name, row.enabled]));
    for (const [name, enabled] of Object.entries(features)) merged.set(name, enabled);
    if (merged.size) {
      await tx
        .insert(s.features)
        .values([...merged].map(([name, enabled]) => ({ tenantId: tenant.id, name, enabled })));
    }
    if (units.length) await tx.insert(s.units).values(units.map((u) => ({ tenantId: tenant.id, name: u.name })));
    return tenant.id;
  });
}

/**
 * Creates a learner in the demo tenant with a random e-mail address and password: a copy of the
 * `like` demo user's account (roles, licences, units, time zone) and recipe, plus `enrolments`.
 * Throws a DemoContentError naming the field for an unknown user, course or term.
 */
export async function createLearner(db: Db, request: LearnerRequest, now: Date = new Date()): Promise<CreatedLearner> {
  const content = demoContent();
  const where = "request body";
  if (request.like !== undefined && !Object.hasOwn(content.users, request.like)) {
    throw new DemoContentError(
      where,
      "like",
      `unknown demo user "${request.like}" (users of users.json: ${Object.keys(content.users).join(", ")})`,
    );
  }
  const persona: Omit<DemoUserDef, "email"> = request.like
    ? content.users[request.like]
    : plainLearner(content.tenant.units[0]);
  const liked = request.like ? content.learners[request.like] : undefined;
  const recipe = checkRecipe(
    content,
    {
      enrolments: [...(liked?.enrolments ?? []), ...(request.enrolments ?? [])],
      ...(liked?.reinforcement ? { reinforcement: liked.reinforcement } : {}),
    },
    where,
  );
  const [tenant] = await db
    .select({ id: s.tenants.id })
    .from(s.tenants)
    .where(eq(s.tenants.domain, content.tenant.domain))
    .limit(1);
  if (!tenant) throw new Error(`createLearner: the demo tenant (${content.tenant.domain}) is not seeded`);
  if (request.features && recipe.enrolments.length > 0) {
    throw new DemoContentError(where, "features", "a learner of a tenant of its own has no courses to be enrolled in");
  }
  if (request.features) tenant.id = await copyTenant(db, tenant.id, request.features);
  const units = await db
    .select({ id: s.units.id, name: s.units.name })
    .from(s.units)
    .where(eq(s.units.tenantId, tenant.id));
  const password = randomBytes(12).toString("base64url");
  const email = `${request.like ?? "learner"}-${randomBytes(6).toString("hex")}@example.com`;
  const firstName = request.firstName ?? persona.firstName;
  const lastName = request.lastName ?? persona.lastName;
  const passwordHash = await hashPassword(password);
  const id = await db.transaction(async (tx) => {
    const userId = await insertUser(tx, {
      tenantId: tenant.id,
      user: {
        ...persona,
        email,
        firstName,
        lastName,
        timezone: request.timezone === undefined ? persona.timezone : request.timezone,
      },
      passwordHash,
      unitIds: Object.fromEntries(units.map((u) => [u.name, u.id])),
    });
    await applyLearnerRecipes(tx, { tenantId: tenant.id, now, learners: [{ userId, recipe }] });
    // The `like` user's groups, as groups of the new learner's own (the demo user's place taken by
    // the learner): every test learner like ada has a mini-group of four, and no group grows.
    if (request.joinGroupsOf) {
      // A teammate (decision 026): the new learner joins every group of that test learner instead.
      const theirs = await tx
        .select({ groupId: s.groupMembers.groupId })
        .from(s.groupMembers)
        .innerJoin(s.groups, eq(s.groups.id, s.groupMembers.groupId))
        .where(and(eq(s.groupMembers.userId, request.joinGroupsOf), eq(s.groups.tenantId, tenant.id)));
      if (theirs.length === 0) throw new DemoContentError("request", "joinGroupsOf", "that learner has no groups");
      await tx.insert(s.groupMembers).values(theirs.map((g) => ({ groupId: g.groupId, userId })));
    } else if (request.like) {
      const groups = (content.tenant.groups ?? []).filter((g) => g.members.includes(request.like!));
      const { insertGroup } = await import("./seed-groups");
      for (const g of groups) {
        const others = g.members.filter((m) => m !== request.like).map((m) => content.users[m].email);
        const memberIds = others.length
          ? await tx
              .select({ id: s.users.id })
              .from(s.users)
              .where(and(eq(s.users.tenantId, tenant.id), inArray(s.users.email, others)))
          : [];
        await insertGroup(tx, tenant.id, content, g, [userId, ...memberIds.map((m) => m.id)]);
      }
    }
    return userId;
  });
  const reinforcement = await db
    .select({
      id: s.reinforcementWorkflows.id,
      options: s.reinforcementWorkflows.options,
      correctAnswer: s.reinforcementWorkflows.correctAnswer,
    })
    .from(s.reinforcementWorkflows)
    .where(eq(s.reinforcementWorkflows.userId, id))
    .orderBy(s.reinforcementWorkflows.dueAt, s.reinforcementWorkflows.id);
  return { id, email, password, name: `${firstName} ${lastName}`, reinforcement };
}
