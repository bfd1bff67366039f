/** What the content viewer shows inside one activity: its body by kind (text, file, video, event…). */
import type { ActivityContent, TreeNode } from "#domain/contract/lifecycle";
import { formatFileSize, durationMinutes } from "#domain/courses";
import type { DateFormatter } from "./format.server";
import { sanitizeCourseHtml } from "./html.server";
import { LmsError, type LmsClient } from "./lms.server";
import {
  ActivityWorkflowState,
  ActivityKind,
  ActivityContentType,
  ActivityType,
  DisplayMode,
} from "#domain/vocabulary";
import { customFrameSize, DEFAULT_FRAME_POLICY } from "#domain/lti";
import { endpoints } from "#domain/contract/endpoints";
import { AttemptState } from "#domain/contract/assessment";
import type { ActivityBody } from "~/common/views/activity";

const IMAGE = /\.(png|jpe?g|gif|svg|webp)$/i;

/** Spec 7.5: HEAD on an attachment reads its size (private files through the app's file route). */
async function fileSize(lms: LmsClient, activityId: string): Promise<number | null> {
  try {
    const res = await lms.raw("HEAD", endpoints.activityFile(activityId));
    const n = Number(res.headers.get("content-length"));
    return res.ok && Number.isFinite(n) ? n : null;
  } catch {
    return null;
  }
}

/** Turns an activity's stored content into what the page shows, per kind (spec 1, 3, 5). */
export async function activityBody(
  lms: LmsClient,
  node: TreeNode,
  content: ActivityContent | undefined,
  ctx: {
    fmt: DateFormatter;
    now: Date;
    childCount: number;
    workflowId?: string;
    /** Where an LTI activity launches from (an attempt in progress); null when reviewing. */
    launch?: { workflowId: string; displayMode: DisplayMode; autoLaunch: boolean } | null;
    /** Where SCORM packages run (CONTENT_URL's origin, decision 040). */
    contentOrigin?: string;
    /** The attempt takes writes (not a review, no proctor lock): a PDF's page is kept for resume. */
    writable?: boolean;
    /** The course, for the link to a QTI test's own page. */
    courseId?: string;
  },
): Promise<ActivityBody> {
  const a = node.childActivity;
  if (a.kind === ActivityKind.composite) return { kind: "module", count: ctx.childCount };
  if (!content) return { kind: "none" };
  const c = content.content as Record<string, string | number | undefined>;
  const aw = a.activityWorkflowAggregate.lastActivityWorkflow;
  if (
    content.contentType === ActivityContentType.PublicFile ||
    content.contentType === ActivityContentType.PrivateFile
  ) {
    const privateFile = content.contentType === ActivityContentType.PrivateFile;
    const url = privateFile ? `/learn/files/${content.id}` : String(c.url ?? "");
    const fileName = String(c.fileName ?? a.name);
    const mime = String(c.mimeType ?? "");
    const bytes = privateFile ? await fileSize(lms, content.id) : typeof c.size === "number" ? c.size : null;
    const size = bytes === null ? null : formatFileSize(bytes);
    if (mime === "application/pdf" || /\.pdf$/i.test(url)) {
      return {
        kind: "pdf",
        url,
        fileName,
        size,
        page: aw?.resume?.page ?? null,
        // Kept while the attempt takes writes, also once the PDF is done (opening it completes it).
        resumeTarget: aw && (aw.state === ActivityWorkflowState.inProgress || ctx.writable) ? aw.id : null,
      };
    }
    if (mime.startsWith("image/") || IMAGE.test(url)) return { kind: "images", images: [{ src: url, alt: fileName }] };
    return { kind: "file", url, fileName, size };
  }
  if (content.contentType === ActivityContentType.Vimeo || a.kind === ActivityKind.video) {
    const id = String(c.vimeoId ?? "").replace(/\D/g, "");
    return {
      kind: "video",
      src: `https://player.vimeo.com/video/${id}`,
      title: a.name,
      duration: content.duration ? durationMinutes(content.duration) : null,
    };
  }
  if (a.kind === ActivityKind.event) {
    const starts = c.startsAt ? String(c.startsAt) : null;
    const ends = c.endsAt ? String(c.endsAt) : null;
    const t = ctx.now.getTime();
    const status = starts && t < Date.parse(starts) ? "upcoming" : ends && t > Date.parse(ends) ? "past" : "ongoing";
    return {
      kind: "event",
      when: ctx.fmt.dateTime(starts) ?? "",
      until: ctx.fmt.dateTime(ends),
      timezone: ctx.fmt.timeZone,
      location: c.location ? String(c.location) : null,
      url: typeof c.url === "string" && /^https:\/\//.test(c.url) ? c.url : null,
      status,
      description: c.description ? String(c.description) : c.html ? null : null,
    };
  }
  if ((content.content as { scorm?: unknown }).scorm) {
    // A SCORM package; the player needs the started activity workflow and what it holds.
    const runtime =
      aw && ctx.workflowId ? await lms.get(endpoints.scormRuntime(ctx.workflowId, aw.id)).catch(() => null) : null;
    return {
      kind: "scorm",
      workflowId: ctx.workflowId ?? null,
      contentOrigin: ctx.contentOrigin ?? "",
      runtime,
      inProgress: aw?.state === ActivityWorkflowState.inProgress,
    };
  }
  if ((content.content as { qti?: unknown }).qti) {
    // A QTI test or survey, taken on its own page (one form per page) once the activity is started.
    const attempt =
      aw && ctx.workflowId
        ? await lms.get(endpoints.assessmentAttempt(ctx.workflowId, aw.id)).catch((err: unknown) => {
            if (err instanceof LmsError && err.status === 404) return null;
            throw err;
          })
        : null;
    return {
      kind: "assessment",
      survey: a.type === ActivityType.Survey,
      href:
        aw && ctx.workflowId && ctx.courseId
          ? `/learn/courses/${ctx.courseId}/assessment/${ctx.workflowId}/${aw.id}`
          : null,
      state: !attempt
        ? "notStarted"
        : attempt.state === AttemptState.inProgress
          ? "inProgress"
          : attempt.state === AttemptState.inGrading
            ? "inGrading"
            : "done",
      score:
        attempt && attempt.score !== null && attempt.maxScore !== null
          ? { score: Math.round(attempt.score * 100) / 100, max: attempt.maxScore }
          : null,
      passed: attempt?.passed ?? null,
      reviewAllowed: attempt?.reviewAllowed ?? false,
    };
  }
  if (a.kind === ActivityKind.lti)
    return {
      kind: "lti",
      toolUrl: content.toolUrl && /^https:\/\//.test(content.toolUrl) ? content.toolUrl : null,
      // An activity pointing at a registered tool is launched (LTI 1.3), not linked.
      launch:
        typeof c.tool === "string" && ctx.launch
          ? {
              workflowId: ctx.launch.workflowId,
              activityPathId: node.activityPathId,
              displayMode: ctx.launch.displayMode,
              autoLaunch: ctx.launch.autoLaunch,
              version: content.contentType === ActivityContentType.Lti11 ? ("1.1" as const) : ("1.3" as const),
              frame: content.frame ?? DEFAULT_FRAME_POLICY,
              // Spec 3 EmbeddedCustom: the activity's preferred size (else it grows as EmbeddedAuto does).
              size:
                ctx.launch.displayMode === DisplayMode.EmbeddedCustom
                  ? customFrameSize({ width: content.preferredWidth, height: content.preferredHeight })
                  : null,
            }
          : null,
    };
  if (typeof c.html === "string") return { kind: "text", html: sanitizeCourseHtml(c.html) };
  if (typeof c.prompt === "string")
    return { kind: "text", html: sanitizeCourseHtml(`<p>${c.prompt.replace(/[<>&]/g, "")}</p>`) };
  return { kind: "none" };
}
