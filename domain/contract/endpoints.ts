/**
 * Every call of the LMS API the web app makes (spec 7), in one place: the method, the path and the
 * shape of the answer (and of the body, for commands), keyed by spec section. The app's client
 * (`app/services/lms.server.ts`) takes these objects, so "the call of 7.3" is found by searching this
 * file, and a path or a type cannot drift between two call sites. Paths the spec leaves "not shown"
 * are ours, in the same style (the OpenAPI document at /api/openapi.json marks them).
 */
import type {
  GradeHandIn,
  GradingHandIn,
  GradingQueue,
  HandInTarget,
  LearnerHandIn,
  LearnerNotifications,
  SaveHandIn,
} from "./hand-ins";
import type { PermissionEntry } from "../access";
import type { ApiMessage } from "./common";
import type { CertificateRecord } from "./certificates";
import type {
  Aggregate,
  AttemptRecord,
  CardAggregate,
  Category,
  CourseAggregate,
  Named,
  ObjectiveAccess,
  ObjectiveAccessDetail,
  ObjectiveWorkflow,
  ObjectiveWorkflowDetail,
  SubmitPreview,
  PublicObjective,
  PublicObjectiveDetail,
} from "./courses";
import type { ActivityContent, ActivityTree, ActivityWorkflowAggregate } from "./lifecycle";
import type { CalendarFeed, CalendarItemList, Dashboard } from "./calendar";
import type { CreateDiscussionPost, DiscussionThread } from "./discussions";
import type { ChatChannels, ChatMessage, ChatMessagePage, ChatRead, ChatUnread, CreateChatMessage } from "./chat";
import type { ChatChannelKind } from "../chat";
import type { CreateFeedback } from "./feedback";
import type { AnalyticsBatch } from "./analytics";
import type { AskTutor, KnowledgeModel, TutorConversation, TutorExchange } from "./tutor";
import type { MiniGroupMember, PublicSettings, Settings, Unit, User } from "./platform";
import type { PublicCertificate } from "./certificates";
import type { LtiAuthAnswer, LtiAuthRequest, LtiResourceForm, LtiResourceLink } from "./lti";
import type { ProctoringSession, ProctoringStartToken } from "./proctoring";
import type { ReinforcementAnswerBody, ReinforcementWorkflow } from "./reinforcement";
import type { WorkMode } from "../groups";
import type { GroupActivityWorkflow, GroupWork, ParticipantsPage } from "./groups";
import type {
  AssessmentAttempt,
  AssessmentReview,
  QuizGradingAttempt,
  QuizGradingItem,
  SaveAnswers,
  ScoreAnswers,
  ScoredAttempt,
} from "./assessment";
import type { ScormCommit, ScormCommitResult, ScormRuntime } from "./scorm";
import type { GradeCourse } from "./grades";
import type { EmailPreferences, SaveEmailPreferences, UnsubscribeAnswer, UnsubscribeRequest } from "./mail";

type HttpMethod = "GET" | "HEAD" | "POST" | "PUT";

/** One call: `Res` is the answer's shape, `Body` the request body's (commands and PUTs). */
export interface Endpoint<Res, Body = undefined> {
  readonly method: HttpMethod;
  readonly path: string;
  /** A command of spec 7.7 (POST with `Prefer: respond-async`, or `respond-sync` when `sync`). */
  readonly command?: { sync: boolean };
  /** Type carriers only; never set. */
  readonly _res?: Res;
  readonly _body?: Body;
}

/** `{ data: [...] }`, with `totalCount` when the query asked for it (spec 7.2). */
export interface List<T> {
  data: T[];
  totalCount?: number;
}

/** A page of a list query sent with `requireTotalCount=true` (every list screen sends it). */
export interface Counted<T> {
  data: T[];
  totalCount: number;
}

const seg = encodeURIComponent;
const get = <Res>(path: string): Endpoint<Res> => ({ method: "GET", path });
const put = <Body, Res = unknown>(path: string): Endpoint<Res, Body> => ({ method: "PUT", path });
const command = <Body, Res = unknown>(path: string, sync = false): Endpoint<Res, Body> => ({
  method: "POST",
  path,
  command: { sync },
});

const PLATFORM = "/api/platform/v1";
const LMS = "/api/lms/v1";
const STORAGE = "/api/lms-storage/v1";
const SCORM = "/api/scorm/v1";
const ASSESSMENT = "/api/assessment/v1";
const assessmentPath = (objectiveWorkflowId: string, activityWorkflowId: string) =>
  `${ASSESSMENT}/users/me/objective-workflows/${seg(objectiveWorkflowId)}/activity-workflows/${seg(activityWorkflowId)}/assessment`;
const KM = "/api/lms-km/v1";

export const endpoints = {
  // 7.1 Startup and sign-in: current user, permissions, licences, settings (paths not shown).
  currentUser: get<User>(`${PLATFORM}/users/me`),
  permissions: get<{ data: PermissionEntry[] }>(`${PLATFORM}/users/me/permissions`),
  licences: get<{ data: { product: string; validUntil: string | null }[] }>(`${PLATFORM}/users/me/licences`),
  settings: get<Settings>(`${PLATFORM}/settings`),
  publicSettings: get<PublicSettings>(`${PLATFORM}/public/settings`),

  // 7.2 Course lists and filters.
  objectiveAccesses: get<Counted<ObjectiveAccess>>(`${LMS}/users/me/objective-accesses/query`),
  objectiveAccess: (objectiveId: string) =>
    get<ObjectiveAccessDetail>(`${LMS}/users/me/objectives/${seg(objectiveId)}/objective-access`),
  aggregates: get<Counted<Aggregate>>(`${LMS}/objective-workflow-aggregates/query`),
  /** The aggregates query with `select: CARD_SELECT` (My courses' cards). */
  cardAggregates: get<Counted<CardAggregate>>(`${LMS}/objective-workflow-aggregates/query`),
  termIds: get<{ data: string[] }>(`${LMS}/users/me/objective-workflow-aggregates/term-ids`),
  enrolledFilterCategories: get<Category[]>(`${LMS}/users/me/enrolled-filter-categories`),
  catalogFilterCategories: get<Category[]>(`${LMS}/users/me/catalog-filter-categories`),
  terms: get<{ data: Named[] }>(`${LMS}/users/me/terms`),
  enrolledShowcases: get<{ data: Named[] }>(`${LMS}/users/me/enrolled-showcases`),
  catalogShowcases: get<{ data: Named[] }>(`${LMS}/users/me/catalog-showcases`),
  openCatalogObjectives: get<Counted<PublicObjective>>(`${LMS}/public/open-catalog/objectives/query`),
  openCatalogObjective: (objectiveId: string) =>
    get<PublicObjectiveDetail>(`${LMS}/public/open-catalog/objectives/${seg(objectiveId)}`),
  openCatalogShowcases: get<{ data: Named[] }>(`${LMS}/public/open-catalog/showcases`),
  openCatalogFilterCategories: get<Category[]>(`${LMS}/public/open-catalog/filter-categories`),

  // 7.5 LTI launches: the resource link of an activity, and the tool's authentication request.
  ltiResourceLink: (objectiveWorkflowId: string) =>
    command<{ activityPathId: string }, LtiResourceLink>(
      `${LMS}/objective-workflows/${seg(objectiveWorkflowId)}/resource-link`,
      true,
    ),
  ltiResourceForm: (objectiveWorkflowId: string, activityWorkflowId: string) =>
    get<LtiResourceForm>(
      `${LMS}/objective-workflows/${seg(objectiveWorkflowId)}/resource-form/${seg(activityWorkflowId)}`,
    ),
  // 7.5 Proctoring (issue 14 item 8, decision 024): the sitting of one activity workflow.
  lastProctoringSession: (objectiveWorkflowId: string, activityWorkflowId: string) =>
    get<ProctoringSession>(
      `${LMS}/users/me/objective-workflows/${seg(objectiveWorkflowId)}/activity-workflows/${seg(activityWorkflowId)}/last-proctoring-session`,
    ),
  proctoringStartToken: (objectiveWorkflowId: string, activityWorkflowId: string, activityPathId: string) =>
    get<ProctoringStartToken>(
      `${LMS}/users/me/objective-workflows/${seg(objectiveWorkflowId)}/activity-workflows/${seg(activityWorkflowId)}/start-token?activityPathId=${seg(activityPathId)}`,
    ),
  startProctoringSession: (objectiveWorkflowId: string, activityWorkflowId: string) =>
    command<Record<string, never>, ProctoringSession>(
      `${LMS}/users/me/objective-workflows/${seg(objectiveWorkflowId)}/activity-workflows/${seg(activityWorkflowId)}/proctoring-sessions`,
      true,
    ),
  ltiAuthorization: command<LtiAuthRequest, LtiAuthAnswer>(`${LMS}/users/me/lti-authorizations`, true),
  /** The same without a session (a tool's frame on another site): the signed launch hint authenticates it. */
  ltiHintAuthorization: command<LtiAuthRequest, LtiAuthAnswer>(`/api/lti/v1/authorizations`, true),

  // Decision 055: a QTI test in an activity workflow, scored on the server.
  assessmentAttempt: (objectiveWorkflowId: string, activityWorkflowId: string) =>
    get<AssessmentAttempt>(assessmentPath(objectiveWorkflowId, activityWorkflowId)),
  startAssessment: (objectiveWorkflowId: string, activityWorkflowId: string) =>
    put<Record<string, never>, AssessmentAttempt>(assessmentPath(objectiveWorkflowId, activityWorkflowId)),
  saveAssessmentAnswers: (objectiveWorkflowId: string, activityWorkflowId: string) =>
    command<SaveAnswers | FormData, { page: number; saved: number }>(
      `${assessmentPath(objectiveWorkflowId, activityWorkflowId)}/answers`,
      true,
    ),
  submitAssessment: (objectiveWorkflowId: string, activityWorkflowId: string) =>
    command<{ id: string }, { state: number; ended: string }>(
      `${assessmentPath(objectiveWorkflowId, activityWorkflowId)}/submit`,
      true,
    ),
  assessmentReview: (objectiveWorkflowId: string, activityWorkflowId: string) =>
    get<AssessmentReview>(`${assessmentPath(objectiveWorkflowId, activityWorkflowId)}/review`),
  // Decision 065: test answers that wait for a person, in the grading queue.
  quizGradingQueue: get<{ data: QuizGradingItem[] }>(`${ASSESSMENT}/grading/attempts`),
  quizGradingAttempt: (attemptId: string) =>
    get<QuizGradingAttempt>(`${ASSESSMENT}/grading/attempts/${seg(attemptId)}`),
  scoreQuizAnswers: (attemptId: string) =>
    put<ScoreAnswers, ScoredAttempt>(`${ASSESSMENT}/grading/attempts/${seg(attemptId)}/scores`),

  // 7.3 Workflows.
  startObjectiveWorkflows: command<{ objectiveWorkflowAggregateId: string; id: string }, ObjectiveWorkflow>(
    `${LMS}/start-objective-workflows`,
  ),
  submitObjectiveWorkflows: command<{ id: string }>(`${LMS}/submit-objective-workflows`),
  finishObjectiveWorkflows: command<{ id: string; objectiveWorkflowId: string }, ObjectiveWorkflow>(
    `${LMS}/finish-objective-workflows`,
    true,
  ),
  startActivityWorkflows: command<
    { objectiveWorkflowId: string; activityPartIds: string[]; mode?: WorkMode },
    { objectiveWorkflowId: string; activityWorkflows: { id: string; activityPartId: string }[] }
  >(`${LMS}/start-activity-workflows`),
  finishActivityWorkflows: command<{ objectiveWorkflowId: string; activityWorkflowIds: string[]; id?: string }>(
    `${LMS}/finish-activity-workflows`,
  ),
  createSelfEnrollments: command<
    { id: string; objectiveAccessId: string },
    { id: string; objectiveAccessId: string; aggregateId?: string; objectiveId?: string }
  >(`${LMS}/create-self-enrollments`, true),
  objectiveAggregate: (objectiveId: string) =>
    get<CourseAggregate>(`${LMS}/objectives/${seg(objectiveId)}/objective-workflow-aggregate`),
  objectiveWorkflow: (workflowId: string) =>
    get<ObjectiveWorkflowDetail>(`${LMS}/objective-workflows/${seg(workflowId)}`),
  /** Spec 4.5: what submitting the attempt now would record (the confirmation warns of a fail). */
  submitPreview: (workflowId: string) =>
    get<SubmitPreview>(`${LMS}/objective-workflows/${seg(workflowId)}/submit-preview`),
  objectiveRecords: get<List<AttemptRecord>>(`${LMS}/objective-records/query`),
  /** Spec 7.3: one of the learner's records (attempts), reveal policy applied. */
  objectiveRecord: (recordId: string) => get<AttemptRecord>(`${LMS}/objective-records/${seg(recordId)}`),
  /** Spec 7.3: the learner's standing in one activity of one attempt. */
  activityWorkflowAggregate: (workflowId: string, activityId: string) =>
    get<ActivityWorkflowAggregate>(
      `${LMS}/users/me/objective-workflows/${seg(workflowId)}/activities/${seg(activityId)}/activity-workflow-aggregate`,
    ),
  /** Spec 7.3 PUT: what the learner left in an activity (resume: a PDF's page; or one SCORM commit). */
  activityWorkflow: (workflowId: string, activityWorkflowId: string) =>
    put<{ resume?: { page?: number; position?: number }; scorm?: ScormCommit }, ScormCommitResult | unknown>(
      `${LMS}/users/me/objective-workflows/${seg(workflowId)}/activity-workflows/${seg(activityWorkflowId)}`,
    ),

  /** Spec 7.3: a group's one workflow of an activity (decision 026), and a member saving its shared answer. */
  groupActivityWorkflow: (aggregateId: string, gawId: string) =>
    get<GroupActivityWorkflow>(
      `${LMS}/users/me/objective-workflow-aggregates/${seg(aggregateId)}/group-activity-workflows/${seg(gawId)}`,
    ),
  saveGroupWork: (aggregateId: string, gawId: string) =>
    put<GroupWork, GroupActivityWorkflow>(
      `${LMS}/users/me/objective-workflow-aggregates/${seg(aggregateId)}/group-activity-workflows/${seg(gawId)}`,
    ),
  /** Spec 7.3: the members of the learner's group for one activity, with their contributions (search, paging). */
  participants: (workflowId: string, activityPathId: string) =>
    get<ParticipantsPage>(
      `${LMS}/users/me/objective-workflows/${seg(workflowId)}/activity-paths/${seg(activityPathId)}/participants/query`,
    ),

  /** Issue 15, issue 30: a SCORM activity's package and what each SCO's next launch starts from. */
  scormRuntime: (workflowId: string, activityWorkflowId: string) =>
    get<ScormRuntime>(
      `${SCORM}/users/me/objective-workflows/${seg(workflowId)}/activity-workflows/${seg(activityWorkflowId)}/runtime`,
    ),
  /**
   * Issue 29 item 1: a file of a SCORM package for the content origin, under the grant the runtime
   * answer carries (no session; decision 040). `path` is already URL-encoded as the browser sent it.
   */
  scormContentFile: (token: string, path: string) => get<never>(`${STORAGE}/scorm-content/${seg(token)}/${path}`),

  // 7.4 Activity tree.
  activityTree: (workflowId: string) =>
    get<ActivityTree>(`${LMS}/users/me/objective-workflows/${seg(workflowId)}/activity`),
  activityContents: (workflowId: string) =>
    get<List<ActivityContent>>(`${LMS}/users/me/objective-workflows/${seg(workflowId)}/activity-contents`),

  // 7.5 Files.
  activityFile: (activityId: string) => get<never>(`${STORAGE}/activities/${seg(activityId)}/file`),
  /** A chat message's file (issue 16 item 3): GET, and HEAD to read its size (spec 7.5). */
  chatAttachment: (attachmentId: string) => get<never>(`${STORAGE}/chat-attachments/${seg(attachmentId)}`),

  // 7.6 Certificates, reinforcement, profile.
  certificateRecords: get<List<CertificateRecord>>(`${LMS}/certificate-records/query`),
  /** The public page's lookup by number (issue 12; limited per address). */
  publicCertificate: (certificateNumber: string) =>
    get<PublicCertificate>(`${LMS}/public/certificate-records/by-number/${seg(certificateNumber)}`),
  /** A certificate's files: the holder's own (signed in) and the public share form's. */
  certificateFile: (certificateId: string, kind: "pdf" | "png") =>
    get<never>(`${STORAGE}/certificate-records/${seg(certificateId)}/${kind}`),
  publicCertificateFile: (certificateNumber: string, kind: "pdf" | "png") =>
    get<never>(`${STORAGE}/public/certificates/${seg(certificateNumber)}/${kind}`),
  /** The certificate's Open Badges 3.0 credential (decision 020); `?format=json` for the JSON envelope. */
  certificateCredential: (certificateNumber: string) =>
    get<never>(`${LMS}/public/credentials/${seg(certificateNumber)}`),
  reinforcementWorkflow: (workflowId: string) =>
    get<ReinforcementWorkflow>(`${LMS}/users/me/reinforcement-learning-workflows/${seg(workflowId)}`),
  answerReinforcement: (workflowId: string) =>
    command<ReinforcementAnswerBody & { commandId?: string }, ReinforcementWorkflow>(
      `${LMS}/users/me/reinforcement-learning-workflows/${seg(workflowId)}/answer`,
      true,
    ),
  units: (userId: string) => get<{ items: Unit[] }>(`${PLATFORM}/users/${seg(userId)}/units`),
  miniGroupMembers: (userId: string) =>
    get<{ items: MiniGroupMember[] }>(`${PLATFORM}/users/${seg(userId)}/mini-group-members`),
  setTimezone: (userId: string) =>
    command<{ timezone: string; commandId?: string }, { timezone: string }>(
      `${PLATFORM}/users/${seg(userId)}/timezone`,
      true,
    ),

  // E-mail the learner controls (issue 31 item 2; paths not shown): preferences, and the signed
  // unsubscribe link of an e-mail (public: no sign-in; RFC 8058's one-click POST goes through the app).
  emailPreferences: get<EmailPreferences>(`${PLATFORM}/users/me/email-preferences`),
  saveEmailPreferences: put<SaveEmailPreferences, EmailPreferences>(`${PLATFORM}/users/me/email-preferences`),
  unsubscribeLink: get<UnsubscribeAnswer>(`${PLATFORM}/public/email-unsubscribe`),
  unsubscribe: command<UnsubscribeRequest, UnsubscribeAnswer>(`${PLATFORM}/public/email-unsubscribe`, true),

  // The learner's grades (issue 31 item 1; paths not shown): a page of courses with their graded activities.
  grades: get<Counted<GradeCourse>>(`${LMS}/users/me/grades/query`),
  gradeCourse: (objectiveId: string) => get<GradeCourse>(`${LMS}/users/me/grades/${seg(objectiveId)}`),

  // The learner dashboard and calendar (spec 1, 2.1 `/` and `/calendar/*`; paths not shown: decision 022).
  dashboard: get<Dashboard>(`${LMS}/users/me/dashboard`),
  /** Query `from` and `to` (ISO instants), at most 100 days apart. */
  calendarItems: get<CalendarItemList>(`${LMS}/users/me/calendar-items`),
  calendarFeed: get<CalendarFeed>(`${LMS}/users/me/calendar-feed`),
  createCalendarFeeds: command<{ id: string }, { created: string }>(`${LMS}/create-calendar-feeds`, true),
  deleteCalendarFeeds: command<{ id: string }, { deleted: boolean }>(`${LMS}/delete-calendar-feeds`, true),

  // Discussions (spec 1 activity kind discussion; paths not shown).
  discussionPosts: (activityPathId: string) =>
    get<DiscussionThread>(`${LMS}/users/me/activity-paths/${seg(activityPathId)}/discussion/posts`),
  createDiscussionPosts: command<CreateDiscussionPost, { id: string; errors?: Record<string, ApiMessage[]> }>(
    `${LMS}/create-discussion-posts`,
    true,
  ),

  // The communications hub (spec 2.5; issue 16; paths not shown).
  chatUnread: get<ChatUnread>(`${LMS}/users/me/chat/unread`),
  chatChannels: (objectiveId: string) => get<ChatChannels>(`${LMS}/users/me/objectives/${seg(objectiveId)}/channels`),
  chatMessages: (objectiveId: string, kind: ChatChannelKind) =>
    get<ChatMessagePage>(`${LMS}/users/me/objectives/${seg(objectiveId)}/channels/${kind}/messages`),
  chatRead: (objectiveId: string, kind: ChatChannelKind) =>
    put<ChatRead, { seq: number }>(`${LMS}/users/me/objectives/${seg(objectiveId)}/channels/${kind}/read`),
  /** JSON, or `multipart/form-data` with files (`createChatMessageFieldsSchema`, issue 16 item 3). */
  createChatMessages: command<CreateChatMessage | FormData, ChatMessage>(`${LMS}/create-chat-messages`, true),

  // 7.3 The knowledge model and the tutor (issue 16; the tutor's paths are not shown).
  knowledgeModel: (aggregateId: string) =>
    get<KnowledgeModel>(`${KM}/users/me/objective-workflow-aggregates/${seg(aggregateId)}/knowledge-model`),
  tutorConversation: (aggregateId: string) =>
    get<TutorConversation>(`${KM}/users/me/objective-workflow-aggregates/${seg(aggregateId)}/tutor-questions`),
  askTutor: (aggregateId: string) =>
    command<AskTutor, TutorExchange>(
      `${KM}/users/me/objective-workflow-aggregates/${seg(aggregateId)}/tutor-questions`,
      true,
    ),
  /** The same question, the answer streamed as server-sent events (`delta`, `fallback`, `done`). */
  askTutorStream: (aggregateId: string) =>
    command<AskTutor, never>(`${KM}/users/me/objective-workflow-aggregates/${seg(aggregateId)}/tutor-questions/stream`),

  // Analytics (spec 7.1: events go to an analytics service; the embedded collector; path not shown).
  analyticsEvents: command<AnalyticsBatch, { accepted: number }>(`/api/analytics/v1/events`, true),

  // Hand-ins and grading (decision 048; paths not shown).
  learnerNotifications: (objectiveId: string) =>
    get<LearnerNotifications>(`${LMS}/users/me/objectives/${seg(objectiveId)}/notifications`),
  handIn: (objectiveId: string, activityPartId: string) =>
    get<LearnerHandIn>(`${LMS}/users/me/objectives/${seg(objectiveId)}/hand-ins/${seg(activityPartId)}`),
  /** JSON, or `multipart/form-data` with files in `files`. */
  saveHandIns: command<SaveHandIn | FormData, { handInId: string }>(`${LMS}/save-hand-ins`, true),
  submitHandIns: command<HandInTarget, { handInId: string; late: boolean }>(`${LMS}/submit-hand-ins`, true),
  withdrawHandIns: command<HandInTarget, { handInId: string }>(`${LMS}/withdraw-hand-ins`, true),
  handInFile: (fileId: string) => get<never>(`${STORAGE}/hand-in-files/${seg(fileId)}`),
  /** Decision 068: a file sent as a test's upload answer (its learner and her graders only). */
  assessmentFile: (fileId: string) => get<never>(`${STORAGE}/assessment-files/${seg(fileId)}`),
  gradingQueue: get<GradingQueue>(`${LMS}/grading/hand-ins`),
  gradingHandIn: (id: string) => get<GradingHandIn>(`${LMS}/grading/hand-ins/${seg(id)}`),
  /** JSON, or `multipart/form-data` with a feedback file in `files`. */
  gradeHandIns: command<GradeHandIn | FormData, { handInId: string; state: string; version: number }>(
    `${LMS}/grade-hand-ins`,
    true,
  ),
  approveHandIns: command<{ id: string; handInId: string }, { handInId: string }>(`${LMS}/approve-hand-ins`, true),

  // Product feedback (spec 2.11, 7.1; path not shown).
  createProductFeedback: command<CreateFeedback, { id: string }>(`${LMS}/create-product-feedback`, true),
} as const;
