import type { Database } from "./db/client";
import { createLimiter, type Limiter } from "./rate-limit";

/**
 * Per-user limits on the API's writes (decision 018): numbers a learner never meets —
 * each write is a click followed by a page load — but a script meets in a second. Counted in the database
 * (`rate_limits`), so every node of a cluster counts one learner together. Every write of the API names
 * its kind here; a request over its kind's limit is a 429 with Retry-After before any other work.
 */
export const WRITE_LIMITS = {
  /** Start, finish and submit (spec 4.4, 4.5, 7.3): even "Mark as done" through a long course is a few a minute. */
  command: { points: 120, durationSeconds: 60 },
  /** Add to my courses (spec 4.3, 4.14). */
  enrolment: { points: 30, durationSeconds: 60 },
  /** Discussion posts and replies: a person writes a few a minute, never 20 (a script wrote 30 in 0.6 s). */
  post: { points: 20, durationSeconds: 60 },
  /** Chat messages, edits and deletions (issue 16 item 3): a fast typist sends a few a minute, never 30. */
  chat: { points: 30, durationSeconds: 60 },
  /** Tutor questions: each one searches the course; a person asks a few a minute. */
  tutor: { points: 20, durationSeconds: 60 },
  /** SCORM package imports by authors: each one streams up to 500 MB to disk. */
  packageImport: { points: 10, durationSeconds: 60 },
  /** Product feedback: a person sends one now and then. */
  feedback: { points: 10, durationSeconds: 60 },
  /** Chat read markers: one per message seen while the chat is open. */
  chatRead: { points: 600, durationSeconds: 60 },
  /** The learner's own settings (time zone, spec 7.6). */
  profile: { points: 20, durationSeconds: 60 },
  /** Where the learner is in an activity (resume): saved on every PDF page turn, so the most generous. */
  progress: { points: 600, durationSeconds: 60 },
} as const satisfies Record<string, { points: number; durationSeconds: number }>;

export type WriteKind = keyof typeof WRITE_LIMITS;
export type WriteLimitOptions = Partial<Record<WriteKind, { points: number; durationSeconds: number }>>;

export interface WriteLimiters {
  consume(kind: WriteKind, userId: string): ReturnType<Limiter["consume"]>;
}

/** One limiter per kind for one API instance (the options override the numbers, for tests only). */
export function createWriteLimiters(database: Pick<Database, "db">, options: WriteLimitOptions = {}): WriteLimiters {
  const limiters = new Map<WriteKind, Limiter>();
  for (const kind of Object.keys(WRITE_LIMITS) as WriteKind[]) {
    const limit = options[kind] ?? WRITE_LIMITS[kind];
    limiters.set(kind, createLimiter(database, { name: `write-${kind}`, store: "shared", ...limit }));
  }
  return { consume: (kind, userId) => limiters.get(kind)!.consume(userId) };
}
