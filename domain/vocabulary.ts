/**
 * The product's vocabulary: every enumeration of spec section 3 (and the state sets of section 4),
 * each defined once, by name and number, and imported by the web app, the API, the seed and the
 * tests alike. Compare with these names, never with bare numbers (an ESLint rule enforces it).
 * `docs/glossary.md` maps each term to the screen's words, the table, the API path and the route.
 *
 * Each enumeration is a frozen object and a type of the same name: `ActivityKind.lti` is the value 2,
 * `ActivityKind` the union `1 | 2 | … | 6`.
 */

type ValueOf<T> = T[keyof T];

// ---------------------------------------------------------------------------------------------
// Course (objective) and activity
// ---------------------------------------------------------------------------------------------

/** Spec 3 'Objective state' (also the state of an activity): 1 draft, 2 ready, 3 expired, 4 archived. */
export const ObjectiveState = { draft: 1, ready: 2, expired: 3, archived: 4 } as const;
export type ObjectiveState = ValueOf<typeof ObjectiveState>;

/** Spec 3 'Activity kind': 1 text, 2 lti, 3 composite (a module), 4 event, 5 video, 6 discussion. */
export const ActivityKind = { text: 1, lti: 2, composite: 3, event: 4, video: 5, discussion: 6 } as const;
export type ActivityKind = ValueOf<typeof ActivityKind>;

/** Spec 3 'Activity content type': how an activity's content is delivered. */
export const ActivityContentType = {
  Lti13: 1,
  PublicFile: 2,
  PrivateFile: 3,
  Lti11: 4,
  Text: 5,
  Composite: 6,
  Vimeo: 7,
} as const;
export type ActivityContentType = ValueOf<typeof ActivityContentType>;

/**
 * Spec 3 'Activity type': 0 None … 14 Assignment. The spec names the members but not the numbers of
 * the middle ones; these follow the order in which it lists them.
 */
export const ActivityType = {
  None: 0,
  VirtualLabs: 1,
  CodingLabs: 2,
  Stem: 3,
  PrivateFiles: 4,
  PublicFiles: 5,
  RichText: 6,
  Composite: 7,
  JupyterLabs: 8,
  Scorm: 9,
  Assessment: 10,
  Classroom: 11,
  Survey: 12,
  ClassDiscussion: 13,
  Assignment: 14,
} as const;
export type ActivityType = ValueOf<typeof ActivityType>;

/** Spec 3 'Display mode' of an LTI tool: 1 Fullscreen, 2 EmbeddedAuto, 3 EmbeddedCustom. */
export const DisplayMode = { Fullscreen: 1, EmbeddedAuto: 2, EmbeddedCustom: 3 } as const;
export type DisplayMode = ValueOf<typeof DisplayMode>;

/** Spec 3 'Presentation mode' of a course's content: 0 Tree, 1 Tiles, 2 LongRead, 3 LongReadWithoutActivityNames. */
export const PresentationMode = { Tree: 0, Tiles: 1, LongRead: 2, LongReadWithoutActivityNames: 3 } as const;
export type PresentationMode = ValueOf<typeof PresentationMode>;

/** Spec 3 'Badge kind': 1 Custom, 2 Credly. */
export const BadgeKind = { Custom: 1, Credly: 2 } as const;
export type BadgeKind = ValueOf<typeof BadgeKind>;

/** Spec 3 'Another status set' (templates and other authored records): 1 Draft, 2 Active, 3 Archived. */
export const RecordStatus = { Draft: 1, Active: 2, Archived: 3 } as const;
export type RecordStatus = ValueOf<typeof RecordStatus>;

// ---------------------------------------------------------------------------------------------
// Workflows (spec 4.1)
// ---------------------------------------------------------------------------------------------

/**
 * Spec 4.1 objective workflow (an attempt at a course), in order. 'none' — not started — is the
 * absence of a workflow, not a value.
 */
export const ObjectiveWorkflowState = {
  inProgress: 1,
  submitted: 2,
  inGrading: 3,
  graded: 4,
  gradingApproved: 5,
  finished: 6,
} as const;
export type ObjectiveWorkflowState = ValueOf<typeof ObjectiveWorkflowState>;

/** Spec 4.1 activity workflow: 1 inProgress, 2 inGrading, 3 finished. */
export const ActivityWorkflowState = { inProgress: 1, inGrading: 2, finished: 3 } as const;
export type ActivityWorkflowState = ValueOf<typeof ActivityWorkflowState>;

/** Spec 3 'Proctoring session: state' (the values are ours; decision 010). */
export const ProctoringSessionState = {
  /** Booked; the learner has not joined yet. */
  created: 1,
  /** The proctor is watching. */
  inProgress: 2,
  /** The sitting is over; the recording awaits the proctor's review. */
  completed: 3,
  /** The proctor has reviewed the recording. */
  reviewed: 4,
} as const;
export type ProctoringSessionState = ValueOf<typeof ProctoringSessionState>;

/** Spec 3 'Background command result' (7.7): 1 Completed, 2 Failed, 3 Canceled. */
export const CommandResult = { completed: 1, failed: 2, canceled: 3 } as const;
export type CommandResult = ValueOf<typeof CommandResult>;

// ---------------------------------------------------------------------------------------------
// Result reveal (spec 3 'Result-reveal options', 4.7, 4.12)
// ---------------------------------------------------------------------------------------------

/** Spec 3 / 4.7: when a course's grade is revealed to the learner. */
export const GRADE_REVEAL_POLICIES = ["none", "never", "afterFinish", "afterDate"] as const;
export type GradeRevealPolicy = (typeof GRADE_REVEAL_POLICIES)[number];

/** Spec 4.12: whether a finished activity can be reviewed. */
export const REVIEW_POLICIES = ["never", "afterSubmission", "afterRevealingResults"] as const;
/** @public (the spec's enumeration, named for readers) */
export type ReviewPolicy = (typeof REVIEW_POLICIES)[number];

/** Spec 4.12: when an activity's results are disclosed (for `afterRevealingResults`). */
export const RESULTS_DISCLOSURE_POLICIES = ["never", "afterDate", "afterScore", "afterFinish"] as const;
/** @public (the spec's enumeration, named for readers) */
export type ResultsDisclosurePolicy = (typeof RESULTS_DISCLOSURE_POLICIES)[number];

// ---------------------------------------------------------------------------------------------
// People, filters, feedback
// ---------------------------------------------------------------------------------------------

/** Spec 3 / 6: roles. */
export const ROLES = ["Administrator", "Author", "Instructor", "Learner"] as const;
export type Role = (typeof ROLES)[number];

/** Spec 3 'Filter progress' (4.11 defines each). */
export const PROGRESS_VALUES = ["notStarted", "inProgress", "completed"] as const;
export type CourseProgress = (typeof PROGRESS_VALUES)[number];

/** Spec 3 'Filter priority'. */
export const PRIORITY_VALUES = ["mandatory", "optional"] as const;
export type CoursePriority = (typeof PRIORITY_VALUES)[number];

/** Spec 3 'Feedback options' of the product-feedback widget (2.11). */
export const FEEDBACK_OPTIONS = [
  "no",
  "navigation",
  "startFinishCourse",
  "activityResults",
  "communicationHub",
  "courseActivities",
  "examConnection",
  "accessibility",
  "registration",
  "contentManagement",
  "reports",
  "adminFunctionality",
  "other",
] as const;

// ---------------------------------------------------------------------------------------------
// State sets: named groups the rules of section 4 use
// ---------------------------------------------------------------------------------------------

/** Spec 4.12: an activity whose content can be opened (draft is 'coming soon', archived is gone). */
export const CONTENT_AVAILABLE_STATES: readonly ObjectiveState[] = [ObjectiveState.ready, ObjectiveState.expired];

/** Spec 4.2: draft and archived courses or activities hide start controls. */
export const HIDDEN_START_STATES: readonly ObjectiveState[] = [ObjectiveState.draft, ObjectiveState.archived];

/** Spec 4.11 'Course progress filter': workflow states that count as in progress. */
export const IN_PROGRESS_FILTER_STATES: readonly ObjectiveWorkflowState[] = [
  ObjectiveWorkflowState.inProgress,
  ObjectiveWorkflowState.inGrading,
  ObjectiveWorkflowState.gradingApproved,
];

/** True when `value` is one of the enumeration's numbers (for input from outside: URLs, bodies, rows). */
export function isMember<E extends Record<string, number>>(enumeration: E, value: unknown): value is ValueOf<E> {
  return typeof value === "number" && (Object.values(enumeration) as number[]).includes(value);
}

/** The values of an enumeration, for zod schemas (`z.literal(enumValues(ActivityKind))`) and SQL checks. */
export function enumValues<E extends Record<string, number>>(enumeration: E): [ValueOf<E>, ...ValueOf<E>[]] {
  return Object.values(enumeration) as [ValueOf<E>, ...ValueOf<E>[]];
}
