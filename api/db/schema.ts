/**
 * The database schema, one file per subject under `schema/` (each imports only the files it
 * references, so the parts form no circle); this barrel is what drizzle and the code import.
 */
export * from "./schema/platform";
export * from "./schema/courses";
export * from "./schema/enrolment";
export * from "./schema/groups";
export * from "./schema/workflows";
export * from "./schema/certificates";
export * from "./schema/rate-limits";
export * from "./schema/identity";
export * from "./schema/reinforcement";
export * from "./schema/calendar";
export * from "./schema/scorm";
export * from "./schema/chat";
export * from "./schema/feedback";
export * from "./schema/tutor";
export * from "./schema/analytics";
export * from "./schema/lti";
export * from "./schema/mail";
export * from "./schema/hand-ins";
export * from "./schema/notifications";
export * from "./schema/assessments";
export * from "./schema/scim";
