import { data, Link, useActionData, useLoaderData } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.courses.$id.view.notifications";
import { endpoints } from "#domain/contract/endpoints";
import { state } from "~/services/request.server";
import { requireCourseId } from "~/services/course-id.server";
import { loadCourse } from "~/services/course-page.server";
import { chatChannelOf, loadChat } from "~/services/chat.server";
import { dateFormatter } from "~/services/format.server";
import { getLocale } from "~/services/i18n.server";
import { LmsError } from "~/services/lms.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { redirectWithToast } from "~/services/toast.server";
import { commandErrorToast } from "~/services/command-errors.server";
import { formError } from "~/common/forms/errors";
import { parseSubmission } from "~/common/forms/parse";
import { INTENT } from "~/common/forms/intents";
import { CHAT_FILES_FIELD, chatPostSchema, chosenFiles } from "~/common/forms/chat";
import { CourseLayers } from "~/components/course-parts";
import { serverRenderedWidget } from "~/components/lazy-widget";
import { ActivityKind } from "#domain/vocabulary";
import type { ChatView } from "~/common/views/chat";
import { GradeNotices } from "~/components/grade-notices";
import { loadGradeNotices } from "~/services/grade-notices.server";

const Chat = serverRenderedWidget(() => import("~/components/chat"), { loading: true });

/**
 * Spec 2.5 Notifications layer: the course's communications hub — its announcement channel and its
 * chat, each with its unread badge (decision 027). The course and the open channel load in
 * parallel; a hub that cannot answer shows the spec's 'Chat is not available' (spec 8).
 */
export async function loader({ params, context, url }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const channel = chatChannelOf(url);
  const fmt = dateFormatter(getLocale(context), shell.user.timezone);
  const [{ aggregate, access }, chat, graded] = await Promise.all([
    loadCourse(lms, id, { config: s.config }),
    loadChat(lms, id, channel, fmt).catch((err: unknown): ChatView | "unavailable" => {
      if (err instanceof LmsError) return "unavailable";
      throw err;
    }),
    // Decision 058: "your assignment was graded" (reading them marks them read).
    loadGradeNotices(lms, id, fmt),
  ]);
  if (graded.markedRead) await s.forgetLearnerReads();
  const notices = graded.notices;
  const objective = aggregate?.objective ?? access!.objective;
  const showContent = Boolean(aggregate?.lastObjectiveWorkflow) && objective.activity.kind !== ActivityKind.lti;
  // A course without a communications hub says so (and leads back), instead of a bare 404.
  if (!objective.announcementChannelId || chat === null)
    return data(
      { id, name: objective.name, showContent, hub: false as const, chat: null, notices },
      { status: notices.length > 0 ? 200 : 404 },
    );
  // Reading the channel changes the shell's unread badge: the next page loads it anew.
  if (chat !== "unavailable" && chat.markedRead) await s.forgetLearnerReads();
  return {
    id,
    name: objective.name,
    showContent,
    hub: true as const,
    chat: chat === "unavailable" ? null : chat,
    notices,
  };
}

export async function action({ params, request, context, url }: Route.ActionArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  await s.requireLearner();
  const channel = chatChannelOf(url);
  const back = `/learn/courses/${id}/view/notifications?channel=${channel}`;
  // Issue 29 item 2: whether the learner may post here is known before the form — and its files — is
  // read (the front streams this form's body instead of buffering it).
  const lms = await s.lms();
  const channels = await lms.get(endpoints.chatChannels(id)).catch((err: unknown) => {
    if (err instanceof LmsError && (err.status === 403 || err.status === 404))
      throw new Response("Not found", { status: 404 });
    throw err;
  });
  if (!channels.data.some((c) => c.kind === channel && c.mayPost))
    return redirectWithToast(back, { type: "critical", key: "apiErrors.unknown" }, s.config);
  const form = await readForm(request);
  switch (intentOf(form)) {
    case INTENT.chatPost: {
      const submission = parseSubmission(form, chatPostSchema());
      if (submission.status !== "success") return data(submission.reply(), { status: 400 });
      const fields = { id: submission.value.id, objectiveId: id, channel, body: submission.value.body ?? "" };
      // With files, the command goes as multipart (the API checks each file's size and contents).
      const files = chosenFiles(form.getAll(CHAT_FILES_FIELD));
      let command: typeof fields | FormData = fields;
      if (files.length > 0) {
        const upload = new FormData();
        for (const [k, v] of Object.entries(fields)) upload.set(k, v);
        for (const f of files) upload.append(CHAT_FILES_FIELD, f, f.name);
        command = upload;
      }
      try {
        await lms.command(endpoints.createChatMessages, command);
      } catch (err) {
        if (!(err instanceof LmsError)) throw err;
        if (err.status === 400 || err.status === 413) {
          const fieldErrors: Record<string, string[]> = {};
          for (const [field, list] of Object.entries(err.messages)) {
            const into = field === "body" || field === CHAT_FILES_FIELD ? field : "";
            (fieldErrors[into] ??= []).push(...list.map((m) => formError(m.code, m.params)));
          }
          // The files are not sent back: the learner chooses them again (a file input cannot be filled).
          return data(submission.reply({ fieldErrors }), { status: 400 });
        }
        if (err.status === 404) throw new Response("Not found", { status: 404 });
        return redirectWithToast(back, commandErrorToast(err), s.config);
      }
      return redirectWithToast(
        `${back}#message-${submission.value.id}`,
        { type: "success", key: "chat.sent" },
        s.config,
      );
    }
    default:
      badRequest();
  }
}

export default function CourseNotifications() {
  const d = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <div className="course-page">
      <CourseLayers
        objectiveId={d.id}
        active={d.hub ? "notifications" : "details"}
        showContent={d.showContent}
        hasAnnouncements={d.hub}
      />
      <section className="course-details" aria-labelledby="notifications-title">
        <h1 id="notifications-title">{t("course.layerNotifications")}</h1>
        <GradeNotices notices={d.notices} />
        {!d.hub ? (
          <>
            <p className="notice" role="status">
              {t("chat.noHub", { course: d.name })}
            </p>
            <p>
              <Link to={`/learn/courses/${d.id}`}>{t("chat.backToCourse")}</Link>
            </p>
          </>
        ) : d.chat ? (
          <Chat key={d.chat.channel} {...d.chat} objectiveId={d.id} lastResult={lastResult ?? null} />
        ) : (
          <p className="notice" role="status">
            {t("messages.chatUnavailable")}
          </p>
        )}
      </section>
    </div>
  );
}
