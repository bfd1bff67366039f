/** Spec 6: roles, permissions, licences and where a user belongs. */

/** A permission object; matched on all of its keys including scope_id (spec 6). */
export interface PermissionEntry {
  permission: string;
  scope_id?: string | null;
}

export const PERMISSIONS = {
  objectiveWorkflowCreate: "ObjectiveWorkflow.Create",
  researchAccess: "Research.Access",
  adminPanel: "Admin.Access",
} as const;

const LICENCES = {
  lms: "LMS",
  research: "Platform.Research",
  knowledgeModels: "Platform.KnowledgeModels",
} as const;

export function isLearnerOnly(roles: readonly string[]): boolean {
  return roles.length === 1 && roles[0] === "Learner";
}

function entryMatches(held: PermissionEntry, wanted: PermissionEntry): boolean {
  if (held.permission !== wanted.permission) return false;
  if (wanted.scope_id === undefined) return true;
  return (held.scope_id ?? null) === (wanted.scope_id ?? null);
}

/** Spec 6: access checks match permission objects on all keys; the strategy is all or any. */
export function hasPermissions(
  held: readonly PermissionEntry[],
  wanted: readonly PermissionEntry[],
  strategy: "all" | "any" = "all",
): boolean {
  if (wanted.length === 0) return true;
  const test = (w: PermissionEntry) => held.some((h) => entryMatches(h, w));
  return strategy === "all" ? wanted.every(test) : wanted.some(test);
}

/** Spec 6: licences that are only Platform.Research or Platform.KnowledgeModels (none containing LMS). */
export function isPlatformOnly(licences: readonly string[]): boolean {
  if (licences.length === 0) return false;
  const platform: string[] = [LICENCES.research, LICENCES.knowledgeModels];
  return licences.every((l) => platform.includes(l)) && !licences.some((l) => l.includes(LICENCES.lms));
}

export function hasPlatformLicence(licences: readonly string[]): boolean {
  return licences.some((l) => l === LICENCES.research || l === LICENCES.knowledgeModels);
}

export type LearnerAreaDecision =
  { kind: "stay" } | { kind: "platform" } | { kind: "firstMenuNode"; url: string } | { kind: "forbidden" };

/**
 * Spec 6, in order: platform-only licences go to the platform app; users who can create objective
 * workflows (or are learner-only) stay in the learner area; others go to their first menu node,
 * or to /forbidden when they have none.
 */
export function learnerAreaDecision(input: {
  roles: readonly string[];
  permissions: readonly PermissionEntry[];
  licences: readonly string[];
  firstMenuNodeUrl: string | null;
}): LearnerAreaDecision {
  if (isPlatformOnly(input.licences)) return { kind: "platform" };
  if (isLearnerOnly(input.roles)) return { kind: "stay" };
  if (hasPermissions(input.permissions, [{ permission: PERMISSIONS.objectiveWorkflowCreate }])) return { kind: "stay" };
  if (input.firstMenuNodeUrl) return { kind: "firstMenuNode", url: input.firstMenuNodeUrl };
  return { kind: "forbidden" };
}

/** Spec 2.1: public paths are recognised by containing /open-catalog, /catalog or /learn/certificate/. */
export function isPublicPath(pathname: string): boolean {
  return (
    pathname.includes("/open-catalog") || pathname.includes("/catalog") || pathname.includes("/learn/certificate/")
  );
}
