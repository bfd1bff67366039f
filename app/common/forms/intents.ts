/**
 * The commands forms post, by name (docs/style.md, 'One schema per intent'). A route's action switches
 * over these and parses each with its own zod schema; a component's hidden `intent` field and the
 * pending-state checks use the same constants.
 */
export const INTENT = {
  /** A QTI test or survey: start it, save a page's answers, submit them. */
  assessmentStart: "assessmentStart",
  assessmentSave: "assessmentSave",
  /** With JavaScript: the same save as the learner goes, answered with its status (decision 057). */
  assessmentAutosave: "assessmentAutosave",
  assessmentSubmit: "assessmentSubmit",
  /** Add to my courses (spec 4.3): create a self-enrollment. */
  enrol: "enrol",
  /** Start, or Start again (spec 4.3, 4.4). */
  start: "start",
  /** Submit the course (spec 4.5), after the confirmation. */
  submit: "submit",
  /** Finish a submitted or graded attempt (spec 4.5, 7.3; decision 030). */
  finish: "finish",
  /** Start or finish one activity (spec 7.3). */
  startActivity: "startActivity",
  finishActivity: "finishActivity",
  /** Where the learner is in an activity (resume; a background save from the PDF viewer). */
  resume: "resume",
  /** A discussion post or reply. */
  post: "post",
  /** Spec 2.11: hide the browser-support alert (a cookie remembers it). */
  dismissBrowserAlert: "dismissBrowserAlert",
  /** A question to the course's AI tutor. */
  askTutor: "askTutor",
  /** Product feedback (spec 2.11). */
  feedback: "feedback",
  /** A message in a course's chat or announcements. */
  chatPost: "chatPost",
  /** Spec 2.8 / 4.10: the answer to a reinforcement question, confirmed on the e-mail answer page. */
  answer: "answer",
  /** Spec 2.9: the preferred time zone. */
  setTimezone: "setTimezone",
  /** The personal calendar feed: a new link (the old one stops working), or none. */
  createFeed: "createFeed",
  /** Issue 14 item 8: start the proctored sitting of an activity. */
  startSitting: "startSitting",
  deleteFeed: "deleteFeed",
  /** Issue 15 item 8: a member saves the group's shared answer (decision 026). */
  teamSave: "teamSave",
  /** Issue 31 item 2: the learner's e-mail preferences. */
  setEmailPreferences: "setEmailPreferences",
  /** Issue 31 item 2: the button of an e-mail's unsubscribe page (no sign-in). */
  unsubscribe: "unsubscribe",
  /** Its undo, on the page the unsubscribe landed on. */
  resubscribe: "resubscribe",
  /** Decision 048: a hand-in's draft saved; saved and then confirmed; handed in; withdrawn to edit. */
  handInSave: "handInSave",
  handInReview: "handInReview",
  handInSubmit: "handInSubmit",
  handInWithdraw: "handInWithdraw",
  /** Decision 048: a grader's draft grade, its release, a second grader's approval. */
  gradeSave: "gradeSave",
  gradeRelease: "gradeRelease",
  gradeApprove: "gradeApprove",
} as const;

/** The name of the hidden field that carries the intent. */
export const INTENT_FIELD = "intent";
