/** Spec 3 / 7.1 product feedback: what the learner's feedback can be about (the spec's options, "no" aside). */
export const FEEDBACK_DETAILS = [
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

/** The grade scale: 1 (poor) to 5 (excellent). */
export const FEEDBACK_GRADES = [1, 2, 3, 4, 5] as const;
