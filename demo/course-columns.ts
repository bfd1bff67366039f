/**
 * A course folder's course.json as the row of its course (objectives), with the defaults of
 * demo/data/README.md: the demo seed (seed-catalog.ts) and the course-folder import
 * (course-folder/import.ts) write courses with it.
 */
import type * as s from "../api/db/schema";
import type { CourseDef } from "./demo-content";

export const coverUrl = (slug: string): string => `/learn/covers/${slug}.svg`;

/** The course's columns, without its id, tenant, creation time and the rows it points at. */
export function courseColumns(c: CourseDef, childrenCount: number) {
  return {
    name: c.name,
    code: c.code,
    description: c.description,
    language: c.language ?? null,
    about: c.about,
    imageUrl: c.cover ? coverUrl(c.slug) : null,
    state: c.state,
    type: c.type,
    activityKind: c.kind,
    activityState: c.activityState ?? c.state,
    childrenCount,
    presentationMode: c.presentationMode,
    displayMode: c.displayMode ?? 2,
    proctored: c.proctored ?? false,
    supportMobileView: c.supportMobileView ?? true,
    supportFullscreenView: c.supportFullscreenView ?? true,
    supportLtiAuthoring: c.supportLtiAuthoring ?? false,
    supportReview: c.supportReview ?? true,
    enableAiTutor: c.enableAiTutor ?? false,
    accessNewContentAfterCompletion: c.accessNewContentAfterCompletion ?? false,
    inCatalog: c.inCatalog ?? true,
    isPublic: c.isPublic ?? false,
    allowSelfEnrollment: c.allowSelfEnrollment ?? true,
  } satisfies Partial<typeof s.objectives.$inferInsert>;
}
