import { hasPermissions, hasPlatformLicence, PERMISSIONS, type PermissionEntry } from "./access";

/** Spec 3 'Settings read' feature set; spec 2.2 navigation defaults: catalog on, the rest off. */
export interface Features {
  catalog: boolean;
  rooms: boolean;
  calendar: boolean;
  researchProjects: boolean;
  knowledgeModels: boolean;
  dashboard: boolean;
  /** Spec 4.3: 'Start again' on composite courses (the composite-retake feature flag). */
  compositeRetake: boolean;
}

export const DEFAULT_FEATURES: Features = {
  catalog: true,
  rooms: false,
  calendar: false,
  researchProjects: false,
  knowledgeModels: false,
  dashboard: false,
  compositeRetake: true,
};

export interface MenuContext {
  features: Features;
  permissions: readonly PermissionEntry[];
  licences: readonly string[];
  cloudRedirect: boolean;
  portalUrl: string | null;
  platformUrl: string;
  /** The user's roles: an Instructor grades hand-ins (decision 048). */
  roles?: readonly string[];
}

type MenuKey =
  | "dashboard"
  | "courses"
  | "grades"
  | "grading"
  | "catalog"
  | "researchProjects"
  | "knowledgeModels"
  | "rooms"
  | "calendar"
  | "portal";

export interface MenuEntry {
  key: MenuKey;
  href: string;
  /** Entries that leave the learner app are plain links, not client navigations. */
  external: boolean;
}

/** Spec 2.1 `/`: the learner dashboard is available when the tenant has the feature on. */
export function dashboardAvailable(features: Pick<Features, "dashboard">): boolean {
  return features.dashboard === true;
}

/** Spec 2.2: menu entries, each shown conditionally, in this order. */
export function learnerMenu(ctx: MenuContext): MenuEntry[] {
  const entries: MenuEntry[] = [];
  if (dashboardAvailable(ctx.features)) entries.push({ key: "dashboard", href: "/learn", external: false });
  entries.push({ key: "courses", href: "/learn/courses", external: false });
  // Issue 31 (beyond spec 2.2): one place for the learner's grades, after the courses they belong to.
  entries.push({ key: "grades", href: "/learn/grades", external: false });
  // Decision 048: the grading queue, for those who grade.
  if (ctx.roles?.includes("Instructor")) entries.push({ key: "grading", href: "/learn/grading", external: false });
  if (ctx.features.catalog) entries.push({ key: "catalog", href: "/learn/catalog", external: false });
  const research =
    hasPlatformLicence(ctx.licences) && hasPermissions(ctx.permissions, [{ permission: PERMISSIONS.researchAccess }]);
  const platformBase = ctx.cloudRedirect ? "/cloud" : ctx.platformUrl;
  if (research && ctx.features.researchProjects)
    entries.push({ key: "researchProjects", href: `${platformBase}/research-projects`, external: true });
  if (research && ctx.features.knowledgeModels)
    entries.push({ key: "knowledgeModels", href: `${platformBase}/knowledge-models`, external: true });
  if (ctx.features.rooms) entries.push({ key: "rooms", href: "/classroom/learner/rooms", external: true });
  if (ctx.features.calendar) entries.push({ key: "calendar", href: "/learn/calendar", external: false });
  if (ctx.portalUrl) entries.push({ key: "portal", href: ctx.portalUrl, external: true });
  return entries;
}

/** Spec 2.2: the public menu has only the open catalog. */
export const PUBLIC_MENU: MenuEntry[] = [{ key: "catalog", href: "/learn/open-catalog", external: false }];

/** Spec 2.2: page title is page names joined with ' | '; default is the portal name. */
export function pageTitle(names: readonly (string | null | undefined)[], portalName: string): string {
  const parts = names.filter((n): n is string => typeof n === "string" && n.trim().length > 0);
  return parts.length ? [...parts, portalName].join(" | ") : portalName;
}
