import { sql } from "drizzle-orm";
import {
  doublePrecision,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { objectives } from "./courses";
import { users } from "./platform";

/**
 * LTI one-time values (decision 023): the nonces of authentication requests a tool sent the platform
 * and the `jti` of the client assertions it sent the token endpoint. A second use of either is refused;
 * rows older than their token's lifetime may be deleted.
 */
export const ltiOneTimeValues = pgTable(
  "lti_one_time_values",
  {
    /** "nonce", "jti" or "oauth-nonce" (LTI 1.1). */
    kind: text("kind").notNull(),
    /** The tool's client id. */
    clientId: text("client_id").notNull(),
    value: text("value").notNull(),
    used: timestamp("used", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.clientId, t.value] }), index("lti_one_time_values_used_idx").on(t.used)],
);

/**
 * Line items a tool made in a course (AGS 2.0 §3.2, issue 32 item 3; decision 041): its own gradebook
 * columns beside the platform's one per graded resource link. Only the tool that made one (`toolKey`)
 * sees, changes or deletes it.
 */
export const ltiLineItems = pgTable(
  "lti_line_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    toolKey: text("tool_key").notNull(),
    label: text("label").notNull(),
    scoreMaximum: doublePrecision("score_maximum").notNull(),
    /** One of the tool's resource links in the course (an activity part id), or none. */
    resourceLinkId: uuid("resource_link_id"),
    resourceId: text("resource_id"),
    tag: text("tag"),
    startDateTime: timestamp("start_date_time", { withTimezone: true }),
    endDateTime: timestamp("end_date_time", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("lti_line_items_context_idx").on(t.objectiveId, t.toolKey, t.createdAt)],
);

/**
 * The last score a tool sent for a learner on a line item (AGS §3.4; §3.3 reads them as results): on
 * the platform's line item of a resource link (`lineItemId` is the activity part id; the score also
 * became the attempt's activity record, `objectiveWorkflowId`) or on one the tool made. A score whose
 * timestamp is older than the one kept is refused (409).
 */
export const ltiResults = pgTable(
  "lti_results",
  {
    lineItemId: uuid("line_item_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    /** The attempt the score went to (a resource link's line item); null on a tool's own line item. */
    objectiveWorkflowId: uuid("objective_workflow_id"),
    toolKey: text("tool_key").notNull(),
    scoreGiven: doublePrecision("score_given"),
    scoreMaximum: doublePrecision("score_maximum"),
    /** The score on the line item's own scale, once fully graded (null before). */
    resultScore: doublePrecision("result_score"),
    resultMaximum: doublePrecision("result_maximum").notNull(),
    comment: text("comment"),
    activityProgress: text("activity_progress").notNull(),
    gradingProgress: text("grading_progress").notNull(),
    /** The tool's timestamp of the score. */
    timestamp: timestamp("timestamp", { withTimezone: true, precision: 3 }).notNull(),
    received: timestamp("received", { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.lineItemId, t.userId] })],
);

/**
 * The LTI tools the operator registered (`npm run lti:tool -- add`, decision 043): one row per tool key,
 * its whole definition as the registry reads it (`api/lti/registry.ts` checks it on every read). Every
 * node reads the same rows, and the writers notify `learner_changes` ("lti-tools") so each node reads
 * them again at once. The platform finds an LTI 1.3 tool by its client id and an LTI 1.1 tool by its
 * consumer key: each is unique among the tools (a tool of the other version leaves its column empty).
 * The tools the server gives itself (the demo's) are not here.
 */
export const ltiTools = pgTable(
  "lti_tools",
  {
    key: text("key").primaryKey(),
    /** "1.3" or "1.1". */
    version: text("version").notNull(),
    clientId: text("client_id"),
    consumerKey: text("consumer_key"),
    /** The tool as `ltiToolSchema` reads it (LTI 1.1's shared secret included). */
    definition: jsonb("definition").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("lti_tools_client_id_idx").on(t.clientId),
    uniqueIndex("lti_tools_consumer_key_idx").on(t.consumerKey),
  ],
);
