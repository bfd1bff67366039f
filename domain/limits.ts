/** Input limits shared by the API's validation and the app's form fields (no dependencies, safe for the browser). */
export const DISCUSSION_BODY_MAX = 5000;
/** Spec 5 / A chat message, in characters after trimming (decision 027). */
export const CHAT_BODY_MAX = 4000;
/** Product feedback's comment, in characters after trimming (issue 16 item 7). */
export const FEEDBACK_COMMENT_MAX = 1000;
