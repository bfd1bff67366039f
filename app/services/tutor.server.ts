import type { RouterContextProvider } from "react-router";
import { endpoints } from "#domain/contract/endpoints";
import type { TutorExchange } from "#domain/contract/tutor";
import { readTutorWidgetMemory, TUTOR_WIDGET_COOKIE, tutorAvailable, tutorWidgetState } from "#domain/tutor";
import { state } from "./request.server";
import { loadCourse } from "./course-page.server";
import { LmsError, type LmsClient } from "./lms.server";

/** The learner's enrolment in a course whose tutor is on (tenant and course); 404 otherwise. */
export async function tutorCourse(context: Readonly<RouterContextProvider>, id: string) {
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const { aggregate } = await loadCourse(lms, id, { config: s.config });
  if (!aggregate || !tutorAvailable(shell.settings["learner.tutor"], aggregate.objective))
    throw new Response("Not found", { status: 404 });
  return { s, lms, aggregate };
}

/**
 * The conversation as the tutor page and the widget show it: the knowledge model (spec 7.3) and the
 * exchanges, in parallel. Without a knowledge model no chat starts (spec 8: 'Chat is not available').
 * `commandId` is the id of the next question (a double submit asks once).
 */
export async function tutorChat(lms: LmsClient, aggregateId: string) {
  const [model, conversation] = await Promise.all([
    lms.get(endpoints.knowledgeModel(aggregateId)).catch((err: unknown) => {
      if (err instanceof LmsError) return null;
      throw err;
    }),
    lms.get(endpoints.tutorConversation(aggregateId)).catch((err: unknown) => {
      if (err instanceof LmsError) return { data: [] as TutorExchange[] };
      throw err;
    }),
  ]);
  return { available: model !== null, exchanges: conversation.data, commandId: crypto.randomUUID() };
}

const WIDGET_COOKIE = new RegExp(`(?:^|;\\s*)${TUTOR_WIDGET_COOKIE}=([^;]*)`);

/** The learner's own expand / collapse of the widget on this course, from the cookie the page writes. */
function rememberedState(request: Request, objectiveId: string): boolean | undefined {
  const raw = WIDGET_COOKIE.exec(request.headers.get("Cookie") ?? "")?.[1];
  return raw === undefined ? undefined : readTutorWidgetMemory(raw).get(objectiveId.toLowerCase());
}

/**
 * Issue 16 item 4 (spec 2.11, 3; decision 028): the tutor widget of a course's pages, or null where it
 * does not show. Expanded, it carries the conversation so the page shows it with or without JavaScript;
 * collapsed, the conversation loads when the learner opens it (with JavaScript; without, its form posts
 * to the tutor page). Never fails the page: a course the learner cannot read simply has no widget.
 */
export async function tutorWidget(context: Readonly<RouterContextProvider>, objectiveId: string) {
  const s = state(context);
  const shell = await s.requireLearner();
  const tenant = shell.settings["learner.tutor"];
  if (!tenant.enabled) return null;
  const lms = await s.lms();
  const aggregate = await s.cachedGet(lms, endpoints.objectiveAggregate(objectiveId)).catch((err: unknown) => {
    if (err instanceof LmsError && err.status !== 401) return null;
    throw err;
  });
  const remembered = rememberedState(s.request, objectiveId);
  const shown = tutorWidgetState({
    tenant,
    course: { id: objectiveId, enableAiTutor: aggregate?.objective.enableAiTutor ?? false },
    enrolled: aggregate !== null,
    remembered,
  });
  if (!aggregate || shown === "hidden") return null;
  // The course's "expanded" (not the learner's own choice) holds on wide screens only, where the widget docks
  // beside the page: the page comes collapsed and the script opens it there (a phone, or no script: collapsed).
  const expandOnWide = shown === "expanded" && remembered === undefined;
  const expanded = shown === "expanded" && !expandOnWide;
  return {
    objectiveId,
    expanded,
    expandOnWide,
    // With the widget expanded, or expanded by the course (a page without script opens it by hand).
    chat: shown === "expanded" ? await tutorChat(lms, aggregate.id) : null,
    // The collapsed widget's form without JavaScript: its question id.
    commandId: crypto.randomUUID(),
  };
}
