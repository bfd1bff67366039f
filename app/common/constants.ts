/** Cards per page on My courses, the catalog and the open catalog. */
export const PAGE_SIZE = 24;
