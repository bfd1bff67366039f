/** Input limits shared by the API's validation and the app's form fields (no dependencies, safe for the browser). */
export const DISCUSSION_BODY_MAX = 5000;
