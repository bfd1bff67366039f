/** Cards per page on My courses, the catalog and the open catalog. */
export const PAGE_SIZE = 24;

/** The header the hand-in page's script sends with its upload (a form of another site cannot set it). */
export const HAND_IN_UPLOAD_HEADER = "X-Hand-In-Upload";

/** The hand-in form's file field. */
export const HAND_IN_FILES = "files";
