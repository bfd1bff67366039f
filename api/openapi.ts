import { askTutorSchema } from "../domain/contract/tutor";
import { scormCommitSchema } from "../domain/contract/scorm";
import { groupWorkSchema } from "../domain/contract/groups";
import { z } from "zod";
import { apiErrorSchema, commandStatusSchema } from "../domain/contract/common";
import {
  licencesSchema,
  permissionsSchema,
  publicSettingsSchema,
  settingsSchema,
  timezoneBodySchema,
  unitSchema,
  userSchema,
} from "../domain/contract/platform";

type Operation = {
  summary: string;
  public?: boolean;
  response?: z.ZodTypeAny;
  body?: z.ZodTypeAny;
  command?: boolean;
  params?: string[];
  /** A licensed feature the call belongs to: 501 when the caller's tenant does not have it. */
  feature?: "catalog" | "calendar";
  /** The body may also be `multipart/form-data`: these fields (JSON Schema), files as binary strings. */
  multipart?: Record<string, unknown>;
  /** The answer is a file (ranges: 206, 416); HEAD answers its size only. */
  file?: boolean;
};

/**
 * Every path of the embedded API. Paths the spec leaves "not shown" are chosen in the same style
 * and marked `x-spec-path-not-shown`. Later resource groups add their entries with `addOperations`.
 */
const operations: Record<string, Record<string, Operation & { notShown?: boolean }>> = {
  "/api/platform/v1/public/settings": {
    get: {
      summary: "Public runtime settings (portal name, locales)",
      public: true,
      response: publicSettingsSchema,
      notShown: true,
    },
  },
  "/api/platform/v1/users/me": { get: { summary: "Current user (spec 3 User)", response: userSchema, notShown: true } },
  "/api/platform/v1/users/me/permissions": {
    get: { summary: "Permission entries of the current user", response: permissionsSchema, notShown: true },
  },
  "/api/platform/v1/users/me/licences": {
    get: { summary: "Valid licences of the current user", response: licencesSchema, notShown: true },
  },
  "/api/platform/v1/settings": {
    get: { summary: "Tenant settings and features (spec 3 Settings read)", response: settingsSchema, notShown: true },
  },
  "/api/platform/v1/users/{id}/units": {
    get: {
      summary: "Units of a user (only yourself)",
      params: ["id"],
      response: z.object({ items: z.array(unitSchema) }),
    },
  },
  "/api/platform/v1/users/{id}/timezone": {
    post: { summary: "Set the preferred time zone", params: ["id"], body: timezoneBodySchema, command: true },
  },
  "/api/lms/v1/commands/{id}": {
    get: {
      summary: "Status of an asynchronous command (spec 7.7)",
      params: ["id"],
      response: commandStatusSchema,
      notShown: true,
    },
  },
};

function addOperations(more: typeof operations) {
  for (const [path, ops] of Object.entries(more)) operations[path] = { ...operations[path], ...ops };
}

const schema = (s: z.ZodTypeAny) => z.toJSONSchema(s, { unrepresentable: "any", io: "output" });

export function openApiDocument() {
  const paths: Record<string, unknown> = {};
  for (const [path, ops] of Object.entries(operations)) {
    const item: Record<string, unknown> = {};
    for (const [method, op] of Object.entries(ops)) {
      const responses: Record<string, unknown> = {
        "400": {
          description: "Invalid input; field messages",
          content: { "application/json": { schema: schema(apiErrorSchema) } },
        },
        "404": {
          description: "Unknown id, or not yours",
          content: { "application/json": { schema: schema(apiErrorSchema) } },
        },
      };
      if (!op.public) responses["401"] = { description: "Missing or invalid bearer token" };
      if (op.feature) {
        responses["501"] = {
          description: `The tenant's licence does not include the ${op.feature} (code featureNotLicensed)`,
          content: { "application/json": { schema: schema(apiErrorSchema) } },
        };
      }
      if (op.multipart)
        responses["413"] = {
          description: "The body is larger than the files it may carry (code in errors)",
          content: { "application/json": { schema: schema(apiErrorSchema) } },
        };
      if (op.file) {
        responses["200"] = {
          description: "The file, with its checked Content-Type, Content-Length and Content-Disposition",
          content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
        };
        responses["206"] = { description: "Range: bytes=a-b — that part of the file" };
        responses["416"] = { description: "A range outside the file" };
      } else if (op.command) {
        responses["200"] = {
          description: "Prefer: respond-sync — the finished command",
          content: { "application/json": { schema: schema(commandStatusSchema) } },
        };
        responses["202"] = {
          description: "Prefer: respond-async — accepted; poll the Location header",
          content: { "application/json": { schema: schema(commandStatusSchema) } },
        };
      } else {
        responses["200"] = {
          description: "OK",
          content: op.response ? { "application/json": { schema: schema(op.response) } } : undefined,
        };
      }
      item[method] = {
        summary: op.summary,
        ...(op.notShown ? { "x-spec-path-not-shown": true } : {}),
        security: op.public ? [] : [{ bearer: [] }],
        parameters: [
          ...(op.params ?? []).map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
          ...(op.command
            ? [{ name: "Prefer", in: "header", schema: { type: "string", enum: ["respond-async", "respond-sync"] } }]
            : []),
        ],
        ...(op.body
          ? {
              requestBody: {
                required: true,
                content: {
                  "application/json": { schema: schema(op.body) },
                  ...(op.multipart ? { "multipart/form-data": { schema: op.multipart } } : {}),
                },
              },
            }
          : {}),
        responses,
      };
    }
    paths[path] = item;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Embedded LMS API",
      version: "1.0.0",
      description: "Reference LMS API for the learner app (spec section 7).",
    },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    paths,
  };
}

import { createDiscussionPostSchema, discussionThreadSchema } from "../domain/contract/discussions";
addOperations({
  "/api/lms/v1/users/me/activity-paths/{activityPathId}/discussion/posts": {
    get: {
      summary: "A discussion's thread: top-level posts newest first (query page, pageSize ≤ 50), each with all replies",
      params: ["activityPathId"],
      response: discussionThreadSchema,
      notShown: true,
    },
  },
  "/api/lms/v1/create-discussion-posts": {
    post: {
      summary: "Write a discussion post or reply (idempotent by id)",
      body: createDiscussionPostSchema,
      command: true,
      notShown: true,
    },
  },
});

import {
  aggregateSchema,
  createSelfEnrollmentSchema,
  filterCategorySchema,
  gradingScaleSchema,
  objectiveAccessDetailSchema,
  objectiveAccessSchema,
  objectiveRecordSchema,
  objectiveWorkflowDetailSchema,
  publicObjectiveDetailSchema,
  publicObjectiveSchema,
  showcaseSchema,
  termSchema,
} from "../domain/contract/courses";
import {
  finishActivityWorkflowsSchema,
  finishObjectiveWorkflowSchema,
  startActivityWorkflowsSchema,
  startObjectiveWorkflowSchema,
  submitObjectiveWorkflowSchema,
} from "../domain/contract/lifecycle";

const list = (item: z.ZodTypeAny) => z.object({ data: z.array(item), totalCount: z.number().int().optional() });
const LIST_QUERY =
  "Query: sort (objective.name | -objective.name | dueDate | -dueDate | created | -created), skip, take (≤ 100), requireTotalCount, search, showcase (repeatable collection id), filterAttribute (categoryId:attrId[,attrId], repeatable; OR within a category, AND across)";

addOperations({
  "/api/lms/v1/public/open-catalog/objectives/query": {
    get: {
      summary: `Public courses of the open catalog. ${LIST_QUERY}; domain selects the tenant`,
      public: true,
      response: list(publicObjectiveSchema),
    },
  },
  "/api/lms/v1/public/open-catalog/objectives/{id}": {
    get: { summary: "One public course", public: true, params: ["id"], response: publicObjectiveDetailSchema },
  },
  "/api/lms/v1/public/open-catalog/showcases": {
    get: { summary: "Collections that contain public courses", public: true, response: list(showcaseSchema) },
  },
  "/api/lms/v1/public/open-catalog/filter-categories": {
    get: { summary: "Filter categories used by public courses", public: true, response: z.array(filterCategorySchema) },
  },
  "/api/lms/v1/objective-workflow-aggregates/query": {
    get: {
      summary: `My courses. ${LIST_QUERY}; filter = text expression (docs/decisions/006), always combined with the standing conditions of spec 7.2; select = comma-separated fields to return (objective.<field> for parts of the course; id always; decision 012)`,
      response: list(aggregateSchema),
    },
  },
  "/api/lms/v1/users/me/objective-workflow-aggregates/term-ids": {
    get: {
      summary: "Term ids of the learner's courses (the term filter lists only these)",
      response: z.object({ data: z.array(z.string()) }),
      notShown: true,
    },
  },
  "/api/lms/v1/objectives/{id}/objective-workflow-aggregate": {
    get: {
      summary:
        "The learner's standing in one course, with its grading scale and the current attempt's newest proctoring session (docs/decisions/010)",
      params: ["id"],
      response: aggregateSchema.extend({
        objectiveGradingScale: gradingScaleSchema.nullable(),
        lastProctoringSession: attemptProctoringSessionSchema.nullable(),
      }),
    },
  },
  "/api/lms/v1/users/me/terms": { get: { summary: "Terms of the tenant", response: list(termSchema) } },
  "/api/lms/v1/users/me/enrolled-showcases": {
    get: { summary: "Collections of the learner's courses", response: list(showcaseSchema) },
  },
  "/api/lms/v1/users/me/catalog-showcases": {
    get: { feature: "catalog", summary: "Collections of catalog courses", response: list(showcaseSchema) },
  },
  "/api/lms/v1/users/me/enrolled-filter-categories": {
    get: { summary: "Filter categories of the learner's courses", response: z.array(filterCategorySchema) },
  },
  "/api/lms/v1/users/me/catalog-filter-categories": {
    get: {
      feature: "catalog",
      summary: "Filter categories of catalog courses",
      response: z.array(filterCategorySchema),
    },
  },
  "/api/lms/v1/grading-scales/query": {
    get: { summary: "Grading scales by id (query id, repeatable)", response: list(gradingScaleSchema) },
  },
  "/api/lms/v1/users/me/objective-accesses/query": {
    get: {
      feature: "catalog",
      summary: `Catalog: courses the tenant offers, with the learner's enrolment. ${LIST_QUERY}`,
      response: list(objectiveAccessSchema),
    },
  },
  "/api/lms/v1/users/me/objectives/{id}/objective-access": {
    get: { summary: "One course as the catalog shows it", params: ["id"], response: objectiveAccessDetailSchema },
  },
  "/api/lms/v1/create-self-enrollments": {
    post: { summary: "Add a course to my courses (idempotent by id)", body: createSelfEnrollmentSchema, command: true },
  },
  "/api/lms/v1/start-objective-workflows": {
    post: {
      summary: "Start or retake a course; id is the new workflow's id (idempotent)",
      body: startObjectiveWorkflowSchema,
      command: true,
    },
  },
  "/api/lms/v1/submit-objective-workflows": {
    post: {
      summary: "Submit a workflow; grading creates its record (idempotent per workflow)",
      body: submitObjectiveWorkflowSchema,
      command: true,
    },
  },
  "/api/lms/v1/finish-objective-workflows": {
    post: {
      summary: "Finish a submitted, graded or approved workflow",
      body: finishObjectiveWorkflowSchema,
      command: true,
    },
  },
  "/api/lms/v1/start-activity-workflows": {
    post: {
      summary:
        "Start activities of a workflow (idempotent per workflow and part); mode personal or group for a collaborative activity (decision 026)",
      body: startActivityWorkflowsSchema,
      command: true,
    },
  },
  "/api/lms/v1/finish-activity-workflows": {
    post: {
      summary: "Finish activities; completion earns the activity's points unless graded by a person",
      body: finishActivityWorkflowsSchema,
      command: true,
    },
  },
  "/api/lms/v1/users/me/objective-workflow-aggregates/{owaId}/group-activity-workflows/{gawId}": {
    get: {
      summary:
        "A group's one workflow of an activity (decision 026): state, who submitted, the shared answer and its version; members only (404 otherwise)",
      params: ["owaId", "gawId"],
    },
    put: {
      summary:
        "A member saves the group's shared answer, naming the version it was written from (409 groupWorkChanged when a teammate saved first, groupWorkSubmitted after the submission)",
      params: ["owaId", "gawId"],
      body: groupWorkSchema,
      notShown: true,
    },
  },
  "/api/lms/v1/users/me/objective-workflows/{id}/activity-paths/{activityPathId}/participants/query": {
    get: {
      summary:
        "The members of the caller's team or mini-group for one activity, with their contributions (query: search, skip, take ≤ 100); 404 without a group",
      params: ["id", "activityPathId"],
    },
  },
  "/api/lms/v1/objective-workflows/{id}": {
    get: {
      summary: "One of the learner's workflows, with the course (objectiveId) it is an attempt of",
      params: ["id"],
      response: objectiveWorkflowDetailSchema,
    },
  },
  "/api/lms/v1/objective-workflow-aggregates/{id}/objective-records": {
    get: {
      summary: "Attempts (records) of one of the learner's courses, newest first; reveal policies applied",
      params: ["id"],
      response: list(objectiveRecordSchema),
    },
  },
  "/api/lms/v1/objective-records/query": {
    get: { summary: "Attempts of a course by objectiveId (query)", response: list(objectiveRecordSchema) },
  },
  "/api/lms/v1/objective-records/{id}": {
    get: {
      summary: "One of the learner's attempts (record), reveal policies applied; another learner's is 404",
      params: ["id"],
      response: objectiveRecordSchema,
    },
  },
  "/api/lms/v1/users/me/objective-workflows/{id}/activities/{activityId}/activity-workflow-aggregate": {
    get: {
      summary: "The learner's standing in one activity of one attempt: latest activity workflow and record",
      params: ["id", "activityId"],
    },
  },
  "/api/lms/v1/users/me/objective-workflows/{id}/activity-with-aggregates": {
    get: {
      summary: "The full activity tree of a workflow with per-activity progress (spec 7.4 'full tree')",
      params: ["id"],
    },
  },
  "/api/lms/v1/users/me/objective-workflows/{id}/activity": {
    get: { summary: "The activity tree (same as activity-with-aggregates)", params: ["id"] },
  },
  "/api/lms/v1/users/me/objective-workflows/{id}/activity/{path}": {
    get: { summary: "A subtree", params: ["id", "path"] },
  },
  "/api/lms/v1/users/me/objective-workflows/{id}/activity/{path}/children": {
    get: { summary: "Children of a node", params: ["id", "path"] },
  },
  "/api/lms/v1/users/me/objective-workflows/{id}/activities/{activityId}/activity-records": {
    get: { summary: "Records of one activity", params: ["id", "activityId"] },
  },
  "/api/lms/v1/users/me/objective-workflows/{id}/activity-records/query": {
    get: { summary: "Records of a workflow; filter=activity.id eq '<uuid>'", params: ["id"] },
  },
  "/api/lms/v1/users/me/objective-workflows/{id}/activity-contents": {
    get: {
      summary: "Contents of every available activity of the course (long-read modes)",
      params: ["id"],
      notShown: true,
    },
  },
  "/api/lms/v1/users/me/objective-workflows/{id}/activity-workflows/{awId}": {
    put: {
      summary:
        "Save where the learner left off: { resume: { page } }, or one SCORM commit { scorm: { scoId, attempt, sequence, cmi: { element: value }, finish?, navRequest?, shared? } } (issue 15, issue 30, decisions 025 and 040). A commit's sequence must be above the SCO's last applied one and it must belong to the SCO's current attempt (otherwise { applied: false }: a duplicate, late or stale commit changes nothing); each CMI element is checked against the package version's data model by the server's own rules (400 with the runtime's error code scorm.401/405 for 1.2, scorm.401/404/406/407 for 2004); finish on LMSFinish/Terminate adds the session time to the attempt's total, suspends or ends the attempt (cmi.exit, adl.nav.request), rolls the SCOs up and finishes the activity workflow with the package's score. Answers { applied, sequence, finished }",
      body: z.object({ scorm: scormCommitSchema }),
      params: ["id", "awId"],
    },
  },
  "/api/lms/v1/users/me/activities/{id}/content": {
    get: { summary: "Content of one activity", params: ["id"], notShown: true },
  },
  "/api/lms-storage/v1/activities/{id}/file": {
    get: {
      summary: "A private activity file (range requests; HEAD for the size); 403 without access",
      params: ["id"],
      notShown: true,
    },
  },
});

import { certificateRecordSchema, publicCertificateSchema } from "../domain/contract/certificates";
import { attemptProctoringSessionSchema, proctoringSessionSchema } from "../domain/contract/proctoring";
addOperations({
  "/api/lms/v1/certificate-records/query": {
    get: {
      summary:
        "The signed-in learner's certificates, newest first. Query: certificateNumber (LA-2026-000123), or objectiveId (uuid) with optional userId (must be the caller's; another user's id finds nothing); sort=-created; skip; take (≤ 100). Certificates whose result is hidden (reveal policy, protected results) are left out until it is shown",
      response: list(certificateRecordSchema),
    },
  },
  "/api/lms/v1/public/certificate-records/{id}": {
    get: {
      summary: "A certificate's public share page data: holder's display name, course, result, dates; no sign-in",
      public: true,
      params: ["id"],
      response: publicCertificateSchema,
    },
  },
  "/api/lms/v1/users/me/objective-workflows/{id}/activity-workflows/{awId}/last-proctoring-session": {
    get: {
      summary:
        "The last proctoring session of one of the learner's activity workflows (state 1 created, 2 in progress, 3 completed, 4 reviewed); 404 when there is none",
      params: ["id", "awId"],
      response: proctoringSessionSchema,
    },
  },
});

import {
  calendarFeedCommandSchema,
  calendarFeedSchema,
  calendarItemListSchema,
  dashboardSchema,
} from "../domain/contract/calendar";
addOperations({
  "/api/lms/v1/users/me/calendar-items": {
    get: {
      feature: "calendar",
      summary:
        "The learner's calendar items (course due, availability and grade-reveal dates; activity constraint dates; events; reinforcement questions due) overlapping [from, to). Query: from, to (ISO 8601 instants with an offset), at most 100 days apart, else 400. Each item: stable id, kind, start, end (events), allDay, course, activity, location, url, lock (spec 4.12 reason), done, question (reinforcement questions: text, options, the learner's answer; never the correct one)",
      response: calendarItemListSchema,
      notShown: true,
    },
  },
  "/api/lms/v1/users/me/dashboard": {
    get: {
      summary:
        "The learner dashboard: counts and progress, continue learning (most recently used first, with the activity to resume), due soon and overdue (14 days), mandatory not started, waiting for results, results of the last 30 days with certificates (reveal rules of 4.7 applied), events of the next 7 days",
      response: dashboardSchema,
      notShown: true,
    },
  },
  "/api/scorm/v1/packages": {
    post: {
      summary:
        "Import a SCORM 1.2 or 2004 package (the zip as the body, application/zip, streamed; ?course=CODE[&activity=ID][&title=…]) into a course's activity; authors and administrators only. A refused package (no manifest, unsafe paths, over the size limit, a missing launch file) stores nothing: 400/413/422 with errors.package[0].code",
      notShown: true,
    },
  },
  "/api/scorm/v1/users/me/objective-workflows/{id}/activity-workflows/{awId}/runtime": {
    get: {
      summary:
        "A SCORM activity's package (its SCOs in order, launch paths, the manifest's values), what each SCO's next launch starts from (cmi.entry, attempt, data, total time), the learner's id and name, adl.data, and the grant (contentToken) under which the content origin serves the package's files (issue 30, decision 040)",
      params: ["id", "awId"],
      notShown: true,
    },
  },
  "/api/lms-storage/v1/scorm-content/{token}/{path}": {
    get: {
      summary:
        "A file of an activity's SCORM package for the content origin (issue 29 item 1, decision 040): no session; the signed grant of the runtime answer names package, activity and learner, expires, and the activity must still be open to the learner (ranges, media types)",
      public: true,
      params: ["token", "path"],
      notShown: true,
    },
  },
  "/api/lms/v1/users/me/calendar-feed": {
    get: {
      feature: "calendar",
      summary: "The learner's personal calendar feed link (a path under this API's origin), or null",
      response: calendarFeedSchema,
      notShown: true,
    },
  },
  "/api/lms/v1/create-calendar-feeds": {
    post: {
      feature: "calendar",
      summary: "A new personal calendar feed link; the old one stops working (Prefer: respond-sync)",
      body: calendarFeedCommandSchema,
      command: true,
      notShown: true,
    },
  },
  "/api/lms/v1/delete-calendar-feeds": {
    post: {
      feature: "calendar",
      summary: "Remove the personal calendar feed link (Prefer: respond-sync)",
      body: calendarFeedCommandSchema,
      command: true,
      notShown: true,
    },
  },
  "/api/lms/v1/public/calendar-feeds/{token}.ics": {
    get: {
      summary:
        "A learner's calendar as iCalendar (RFC 5545, text/calendar), by the secret token of their link; no sign-in, no cookie. ETag and If-None-Match (304); 404 for an unknown or replaced link; 429 when asked too often",
      public: true,
      params: ["token"],
      notShown: true,
    },
  },
});

addOperations({
  "/api/lms-km/v1/users/me/objective-workflow-aggregates/{id}/knowledge-model": {
    get: {
      summary:
        "Spec 7.3: the knowledge model of the learner's course (knowledgeModelId; the tenant's defaultKnowledgeModelId, else the course); 404 when the tenant's tutor is off",
      params: ["id"],
    },
  },
  "/api/lms-km/v1/users/me/objective-workflow-aggregates/{id}/tutor-questions": {
    get: {
      summary: "The learner's conversation with the course's tutor, oldest first",
      params: ["id"],
      notShown: true,
    },
    post: {
      summary:
        "Ask the tutor ({ id, question }): the answer grounded in the course passages the learner may open — text activities, PDF pages, discussion posts — with citations ({ activityPathId, name, page? }: `page` for a PDF's page) (extractive without a model; the model's, or extractive when it fails, with one)",
      body: askTutorSchema,
      params: ["id"],
      command: true,
      notShown: true,
    },
  },
  "/api/lms-km/v1/users/me/objective-workflow-aggregates/{id}/tutor-questions/stream": {
    post: {
      summary:
        "The same question with the answer streamed (text/event-stream): `delta` { text } while the model writes, `fallback` when it failed after all, then `done` with the stored exchange; an id already answered is sent back as `done` at once",
      body: askTutorSchema,
      params: ["id"],
      notShown: true,
    },
  },
});

import {
  chatMessagesQuerySchema,
  chatReadSchema,
  CHAT_ATTACHMENTS_FIELD,
  createChatMessageFieldsSchema,
  createChatMessageSchema,
  editChatMessageSchema,
} from "../domain/contract/chat";
const CHANNEL = "/api/lms/v1/users/me/objectives/{objectiveId}/channels";
const chatUpload = schema(createChatMessageFieldsSchema) as { properties: Record<string, unknown> };
addOperations({
  "/api/lms/v1/users/me/chat/unread": {
    get: {
      summary:
        "Unread chat messages over the learner's courses (the shell's badge), and the course and channel of the newest",
      notShown: true,
    },
  },
  [CHANNEL]: {
    get: {
      summary: "A course's channels (announcements, chat) with unread counts and whether the caller may post",
      params: ["objectiveId"],
      notShown: true,
    },
  },
  [`${CHANNEL}/{kind}/messages`]: {
    get: {
      summary: `A channel's newest messages, or (after) every message changed after a change number, each with its attachments {id, name, size, type, url}; with the attachment rules (maxBytes, maxCount, types). Query: ${Object.keys(chatMessagesQuerySchema.shape).join(", ")}`,
      params: ["objectiveId", "kind"],
      notShown: true,
    },
  },
  [`${CHANNEL}/{kind}/read`]: {
    put: {
      summary: "Read a channel up to a message (the marker only moves forward)",
      params: ["objectiveId", "kind"],
      body: chatReadSchema,
      notShown: true,
    },
  },
  "/api/lms/v1/create-chat-messages": {
    post: {
      summary:
        "Post a message (idempotent by id). As multipart/form-data it carries files in the field `attachments` (by default at most 3, each at most 10 MB, of the types pdf, png, jpeg, gif, webp, txt, docx, xlsx, pptx, zip: CHAT_ATTACHMENT_*); each file's type is read from its name and confirmed by its contents. Refusals are 400 with errors.attachments: attachmentTooLarge ('We support attaching files not bigger than {size}'), attachmentType ('We support attaching only these types of files: {types}'), attachmentCount",
      body: createChatMessageSchema,
      multipart: {
        ...chatUpload,
        properties: {
          ...chatUpload.properties,
          [CHAT_ATTACHMENTS_FIELD]: { type: "array", items: { type: "string", format: "binary" } },
        },
      },
      command: true,
      notShown: true,
    },
  },
  "/api/lms/v1/edit-chat-messages": {
    post: {
      summary: "Edit (body) or delete (body: null) one's own message; a deleted message's files are no longer served",
      body: editChatMessageSchema,
      command: true,
      notShown: true,
    },
  },
  "/api/lms-storage/v1/chat-attachments/{id}": {
    get: {
      summary:
        "A chat message's file, to the members of the course's hub only (404 to anyone else and once the message is deleted); images inline, other files as attachment; X-Content-Type-Options: nosniff",
      params: ["id"],
      file: true,
      notShown: true,
    },
    head: {
      summary: "Spec 7.5: HEAD on an attachment URL reads its size (Content-Length)",
      params: ["id"],
      file: true,
    },
  },
});
