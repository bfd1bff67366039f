// Groups (spec 3 Group, 2.9): the members of the learner's mini-group, for the profile.
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../db/client";
import { groupMembers, groups, units, userUnits, users } from "../db/schema";

/**
 * The members of the user's mini-groups (the user included) with their primary unit, in one query
 * (the member-by-user index finds the groups, the primary key their members).
 */
export async function miniGroupMembers(db: Db, userId: string) {
  const mine = alias(groupMembers, "mine");
  return db
    .selectDistinct({
      id: users.id,
      first_name: users.firstName,
      middle_name: users.middleName,
      last_name: users.lastName,
      email: users.email,
      primary_unit: units.name,
    })
    .from(mine)
    .innerJoin(groups, and(eq(groups.id, mine.groupId), eq(groups.kind, "miniGroup")))
    .innerJoin(groupMembers, eq(groupMembers.groupId, groups.id))
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .leftJoin(userUnits, and(eq(userUnits.userId, users.id), eq(userUnits.isPrimary, sql`true`)))
    .leftJoin(units, eq(units.id, userUnits.unitId))
    .where(and(eq(mine.userId, userId), isNull(users.deactivatedAt)))
    .orderBy(asc(users.lastName), asc(users.firstName));
}
