import { data } from "react-router";
import type { Route } from "./+types/learn.courses.$id.offline-copy";
import { ActivityContentType, ActivityKind, ActivityType, CONTENT_AVAILABLE_STATES } from "#domain/vocabulary";
import type { OfflinePlan } from "~/common/offline";
import { state } from "~/services/request.server";
import { getLocale } from "~/services/i18n.server";
import { requireCourseId } from "~/services/course-id.server";
import { loadContentView } from "~/services/content-viewer.server";
import { offlineUserKey } from "~/services/offline.server";

/** What a copy keeps: text activities and files (PDFs, images), never tools, packages, videos or discussions. */
const KEPT_CONTENT: readonly number[] = [
  ActivityContentType.Text,
  ActivityContentType.PublicFile,
  ActivityContentType.PrivateFile,
];

/**
 * /learn/courses/{id}/offline-copy (issue 31 item 3, decision 044): the pages of the course the service
 * worker keeps when the learner makes it available offline — the course page, the content page and one
 * per text or file activity the learner may open now (spec 4.12: never a locked one; the pages themselves
 * leave locked content out, decision 018). Its images and PDFs are what those pages show. Whose copy
 * it is rides along: every kept page must say the same.
 */
export async function loader({ params, url, context }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  const shell = await s.requireLearner();
  const session = await s.session();
  const lms = await s.lms();
  let view;
  try {
    ({ view } = await loadContentView({
      lms,
      config: s.config,
      courseId: id,
      workflowId: null,
      axis: null,
      url: new URL(url.pathname, url.origin),
      locale: getLocale(context),
      timezone: shell.user.timezone,
    }));
  } catch (err) {
    // No attempt to read (not started, or finished without review): nothing to keep.
    if (err instanceof Response) return data({ error: "notAllowed" }, { status: 409, headers: NO_STORE });
    throw err;
  }
  const base = `/learn/courses/${encodeURIComponent(id)}`;
  const pages = [base, `${base}/view/details`, `${base}/view/content`];
  for (const item of view.items) {
    const a = item.node.childActivity;
    if (item.locked || item.node.activityPathId === view.rootId) continue;
    if (a.kind !== ActivityKind.text || a.type === ActivityType.Scorm) continue;
    if (!KEPT_CONTENT.includes(a.contentType) || !CONTENT_AVAILABLE_STATES.includes(a.state)) continue;
    pages.push(`${base}/view/content?activityPathId=${encodeURIComponent(item.node.activityPathId)}`);
  }
  const plan: OfflinePlan = { user: offlineUserKey(session!.sub), courseId: id, name: view.course.name, pages };
  return data(plan, { headers: NO_STORE });
}

const NO_STORE = { "Cache-Control": "private, no-store" };
