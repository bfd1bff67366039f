// Queries: reads and writes the handlers share, grouped by resource. This one: the values a course list can be
// filtered by (collections, filter categories and their attributes, terms) within a scope.
import { eq, sql } from "drizzle-orm";
import type { Category, Named } from "../../domain/contract/courses";
import type { Db } from "../db/client";
import {
  filterAttributes,
  filterCategories,
  objectiveAttributes,
  objectiveShowcases,
  showcases,
  terms,
} from "../db/schema";
import type { Scope } from "./course-scopes";

/**
 * Filter values that occur on the courses in scope. Driven from the small attribute and collection
 * tables with EXISTS probes (index objective_attributes(attribute_id, objective_id)), so the cost
 * does not grow with the number of courses.
 */
export async function categoriesFor(db: Db, inScope: Scope): Promise<Category[]> {
  const rows = await db
    .select({
      categoryId: filterCategories.id,
      categoryName: filterCategories.name,
      id: filterAttributes.id,
      name: filterAttributes.name,
    })
    .from(filterAttributes)
    .innerJoin(filterCategories, eq(filterCategories.id, filterAttributes.categoryId))
    .where(
      sql`exists (select 1 from ${objectiveAttributes} where ${objectiveAttributes.attributeId} = ${filterAttributes.id} and ${inScope(sql`${objectiveAttributes.objectiveId}`)})`,
    )
    .orderBy(filterCategories.name, filterAttributes.name);
  const map = new Map<string, { id: string; name: string; attributes: { id: string; name: string }[] }>();
  for (const r of rows) {
    const cat = map.get(r.categoryId) ?? { id: r.categoryId, name: r.categoryName, attributes: [] };
    cat.attributes.push({ id: r.id, name: r.name });
    map.set(r.categoryId, cat);
  }
  return [...map.values()];
}

/** The collections of the courses in scope, in name order. */
export async function showcasesFor(db: Db, inScope: Scope): Promise<Named[]> {
  return db
    .select({ id: showcases.id, name: showcases.name })
    .from(showcases)
    .where(
      sql`exists (select 1 from ${objectiveShowcases} where ${objectiveShowcases.showcaseId} = ${showcases.id} and ${inScope(sql`${objectiveShowcases.objectiveId}`)})`,
    )
    .orderBy(showcases.name);
}

/** The tenant's terms, in name order. */
export async function termsOf(db: Db, tenantId: string): Promise<Named[]> {
  return db
    .select({ id: terms.id, name: terms.name })
    .from(terms)
    .where(eq(terms.tenantId, tenantId))
    .orderBy(terms.name);
}
