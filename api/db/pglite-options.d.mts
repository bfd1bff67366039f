/** PGlite's start options (PGLITE_SHARED_BUFFERS); see pglite-options.mjs. */
export function pgliteOptions(value?: string): { startParams: string[] };
