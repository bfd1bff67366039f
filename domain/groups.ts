// Team and mini-group activities (spec 1, 3 Activity supportCollaborativeMode / supportPersonalMode,
// Group, group activity workflows; decision 026). Pure rules shared by the API and the page.

export type WorkMode = "personal" | "group";

/**
 * Spec 3: the modes an activity may be taken in. Collaborative only → the group's; personal only (or
 * neither flag) → the learner's own; both → the learner chooses before starting.
 */
export function workModes(a: { supportCollaborativeMode: boolean; supportPersonalMode: boolean }): WorkMode[] {
  if (a.supportCollaborativeMode && a.supportPersonalMode) return ["personal", "group"];
  if (a.supportCollaborativeMode) return ["group"];
  return ["personal"];
}

/** What starting in `asked` mode means: the mode used, or why it cannot start. */
export function startMode(
  a: { supportCollaborativeMode: boolean; supportPersonalMode: boolean },
  asked: WorkMode | undefined,
  hasGroup: boolean,
): { mode: WorkMode } | { refused: "noGroup" | "modeNotSupported" } {
  const modes = workModes(a);
  // Without a choice: the only mode, or personal when both are offered (the page always asks).
  const mode = asked ?? (modes.length === 1 ? modes[0] : "personal");
  if (!modes.includes(mode)) return { refused: "modeNotSupported" };
  if (mode === "group" && !hasGroup) return { refused: "noGroup" };
  return { mode };
}

export interface CandidateGroup {
  id: string;
  kind: "miniGroup" | "team" | string;
  objectiveId: string | null;
  activityPartId: string | null;
}

/**
 * The group a learner works with on one activity of a course: a team for that very activity, else a
 * team for the course, else a mini-group of the course, else a tenant-wide mini-group (spec 1: team
 * and mini-group activities). Ties go to the lowest id, so every member resolves the same group.
 */
export function groupForActivity<G extends CandidateGroup>(
  candidates: G[],
  at: { objectiveId: string; activityPartId: string },
): G | null {
  const rank = (g: G): number => {
    if (g.objectiveId !== null && g.objectiveId !== at.objectiveId) return -1;
    if (g.activityPartId !== null && g.activityPartId !== at.activityPartId) return -1;
    if (g.kind === "team" && g.activityPartId !== null) return 4;
    if (g.kind === "team" && g.objectiveId !== null) return 3;
    if (g.kind === "team") return -1; // a team always belongs to a course
    if (g.objectiveId !== null) return 2;
    return 1;
  };
  let best: G | null = null;
  let bestRank = 0;
  for (const g of candidates) {
    const r = rank(g);
    if (r > bestRank || (r === bestRank && r > 0 && best !== null && g.id < best.id)) {
      best = g;
      bestRank = r;
    }
  }
  return best;
}

/** Longest shared answer a group may keep (characters). */
export const GROUP_WORK_MAX = 20_000;
