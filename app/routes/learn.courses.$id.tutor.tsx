import { data, redirect, useActionData, useLoaderData } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.courses.$id.tutor";
import { endpoints } from "#domain/contract/endpoints";
import { ActivityKind } from "#domain/vocabulary";
import { requireCourseId } from "~/services/course-id.server";
import { tutorChat, tutorCourse } from "~/services/tutor.server";
import { LmsError } from "~/services/lms.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { redirectWithToast } from "~/services/toast.server";
import { commandErrorToast } from "~/services/command-errors.server";
import { formError } from "~/common/forms/errors";
import { parseSubmission } from "~/common/forms/parse";
import { INTENT } from "~/common/forms/intents";
import { askTutorFormSchema } from "~/common/forms/tutor";
import { CourseLayers } from "~/components/course-parts";
import { serverRenderedWidget } from "~/components/lazy-widget";

const Tutor = serverRenderedWidget(() => import("~/components/tutor"), { loading: true });

/**
 * /learn/courses/{id}/tutor: the AI tutor of a course, grounded in the course's own
 * open content with citations. The knowledge model (spec 7.3) and the conversation load in parallel; if
 * the knowledge model cannot be had, no chat starts (spec 8: 'Chat is not available').
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  const { lms, aggregate } = await tutorCourse(context, id);
  const chat = await tutorChat(lms, aggregate.id);
  const objective = aggregate.objective;
  return {
    id,
    name: objective.name,
    language: objective.language ?? null,
    showContent: Boolean(aggregate.lastObjectiveWorkflow) && objective.activity.kind !== ActivityKind.lti,
    hasAnnouncements: Boolean(objective.announcementChannelId),
    ...chat,
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const id = requireCourseId(params.id);
  const { s, lms, aggregate } = await tutorCourse(context, id);
  const back = `/learn/courses/${id}/tutor`;
  const form = await readForm(request);
  switch (intentOf(form)) {
    case INTENT.askTutor: {
      const submission = parseSubmission(form, askTutorFormSchema);
      if (submission.status !== "success") return data(submission.reply(), { status: 400 });
      try {
        await lms.command(endpoints.askTutor(aggregate.id), {
          id: submission.value.id,
          question: submission.value.question,
        });
      } catch (err) {
        if (!(err instanceof LmsError)) throw err;
        if (err.status === 400) {
          const fieldErrors: Record<string, string[]> = {};
          for (const [field, list] of Object.entries(err.messages))
            (fieldErrors[field === "question" ? "question" : ""] ??= []).push(
              ...list.map((m) => formError(m.code, m.params)),
            );
          return data(submission.reply({ fieldErrors }), { status: 400 });
        }
        return redirectWithToast(back, commandErrorToast(err), s.config);
      }
      return redirect(`${back}#exchange-${submission.value.id}`);
    }
    default:
      badRequest();
  }
}

export const handle = {
  title: (_d: unknown, t: (k: string) => string) => t("tutor.title"),
};

export default function CourseTutor() {
  const d = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <div className="course-page">
      <CourseLayers
        objectiveId={d.id}
        active="tutor"
        showContent={d.showContent}
        hasAnnouncements={d.hasAnnouncements}
        hasTutor
      />
      <section className="course-details" aria-labelledby="tutor-title">
        <h1 id="tutor-title">{t("tutor.title")}</h1>
        {d.available ? (
          <Tutor
            objectiveId={d.id}
            language={d.language}
            exchanges={d.exchanges}
            commandId={d.commandId}
            lastResult={lastResult ?? null}
          />
        ) : (
          <p className="notice" role="status">
            {t("messages.chatUnavailable")}
          </p>
        )}
      </section>
    </div>
  );
}
