// Team and mini-group activities on the content page (spec 1, 3, 7.3; issue 15 items 7–9; decision 026):
// what the page shows of the learner's group for the selected activity, and saving the shared answer.
import { endpoints } from "#domain/contract/endpoints";
import type { GroupActivityWorkflow, ParticipantsPage } from "#domain/contract/groups";
import type { TreeNode } from "#domain/contract/lifecycle";
import { workModes } from "#domain/groups";
import type { DateFormatter } from "./format.server";
import { LmsError, type LmsClient } from "./lms.server";
import type { TeamView } from "~/common/views/team";

const PARTICIPANTS_PAGE_SIZE = 10;

/** A page number from the URL: a positive integer, else 1. */
function pageOf(raw: string | null): number {
  const n = Number.parseInt(raw ?? "", 10);
  return Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : 1;
}

/**
 * The team panel of a collaborative activity (null for any other): the group's state and shared answer
 * once the learner works in it, and the members with their contributions. Two calls at once.
 */
export async function loadTeam(
  lms: LmsClient,
  input: {
    node: TreeNode;
    workflowId: string;
    aggregateId: string;
    url: URL;
    fmt: DateFormatter;
  },
): Promise<TeamView | null> {
  const a = input.node.childActivity;
  if (!a.supportCollaborativeMode) return null;
  const aw = a.activityWorkflowAggregate.lastActivityWorkflow;
  const search = (input.url.searchParams.get("members") ?? "").slice(0, 200);
  const page = pageOf(input.url.searchParams.get("membersPage"));
  const gawId = aw?.groupActivityWorkflowId ?? null;
  const [members, gaw] = await Promise.all([
    lms
      .get(endpoints.participants(input.workflowId, input.node.activityPathId), {
        ...(search.trim() ? { search } : {}),
        skip: (page - 1) * PARTICIPANTS_PAGE_SIZE,
        take: PARTICIPANTS_PAGE_SIZE,
      })
      .catch((err: unknown) => {
        // 404: the learner is in no group for this activity.
        if (err instanceof LmsError && err.status === 404) return null;
        throw err;
      }),
    gawId ? lms.get(endpoints.groupActivityWorkflow(input.aggregateId, gawId)) : null,
  ]);
  return {
    activityPathId: input.node.activityPathId,
    aggregateId: input.aggregateId,
    modes: workModes(a),
    mode: aw ? (gawId ? "group" : "personal") : null,
    group: members ? { name: members.group.name, kind: members.group.kind } : null,
    work: gaw ? workView(gaw, input.fmt) : null,
    participants: members ? participantsView(members, page, search, input.fmt) : null,
  };
}

function workView(g: GroupActivityWorkflow, fmt: DateFormatter): NonNullable<TeamView["work"]> {
  return {
    id: g.id,
    state: g.state,
    text: g.work.text,
    version: g.work.version,
    updated:
      g.work.updatedBy && g.work.updatedAt
        ? { by: g.work.updatedBy.name, time: fmt.dateTime(g.work.updatedAt) ?? "" }
        : null,
    submitted: g.finishedBy && g.finished ? { by: g.finishedBy.name, time: fmt.dateTime(g.finished) ?? "" } : null,
    result: g.result && g.result.score !== null ? { score: g.result.score, maxScore: g.result.maxScore } : null,
  };
}

function participantsView(
  p: ParticipantsPage,
  page: number,
  search: string,
  fmt: DateFormatter,
): NonNullable<TeamView["participants"]> {
  return {
    rows: p.data.map((m) => ({
      id: m.id,
      name: `${m.firstName} ${m.lastName}`.trim(),
      me: m.me,
      contributions: m.contributions,
      last: m.lastContributedAt ? (fmt.dateTime(m.lastContributedAt) ?? "") : null,
      lastAt: m.lastContributedAt,
      kind: m.lastContribution,
    })),
    totalCount: p.totalCount,
    page,
    pageSize: PARTICIPANTS_PAGE_SIZE,
    search,
  };
}

/**
 * Saves the group's shared answer. A teammate's newer save (409 groupWorkChanged) is returned as a
 * conflict with the group's current text, so the page keeps what the learner wrote and shows both.
 */
export async function saveTeamWork(
  lms: LmsClient,
  input: { aggregateId: string; gawId: string; text: string; version: number },
): Promise<{ kind: "saved" } | { kind: "conflict"; current: { text: string; version: number } }> {
  try {
    await lms.put(endpoints.saveGroupWork(input.aggregateId, input.gawId), {
      text: input.text,
      version: input.version,
    });
    return { kind: "saved" };
  } catch (err) {
    if (!(err instanceof LmsError) || err.firstMessage()?.code !== "groupWorkChanged") throw err;
    const now = await lms.get(endpoints.groupActivityWorkflow(input.aggregateId, input.gawId));
    return { kind: "conflict", current: { text: now.work.text, version: now.work.version } };
  }
}
