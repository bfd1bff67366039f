import { endpoints } from "#domain/contract/endpoints";
import type { DateFormatter } from "./format.server";
import { LmsError, type LmsClient } from "./lms.server";
import type { GradeNoticeView } from "~/common/views/grades";

/**
 * Decision 058: the learner's "your assignment was graded" notices of a course, as the hub shows them
 * (reading them marks them read: the shell's badge changes). A hub that cannot answer shows none.
 */
export async function loadGradeNotices(
  lms: LmsClient,
  objectiveId: string,
  fmt: DateFormatter,
): Promise<{ notices: GradeNoticeView[]; markedRead: boolean }> {
  try {
    const answer = await lms.get(endpoints.learnerNotifications(objectiveId));
    return {
      markedRead: answer.markedRead,
      notices: answer.data.map((n) => ({
        id: n.id,
        activityName: n.activityName,
        href: `/learn/courses/${n.objectiveId}/hand-in/${n.activityPartId}`,
        score: n.score,
        maxScore: n.maxScore,
        time: fmt.dateTime(n.createdAt) ?? "",
        unread: !n.read,
      })),
    };
  } catch (err) {
    if (err instanceof LmsError) return { notices: [], markedRead: false };
    throw err;
  }
}
