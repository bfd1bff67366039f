/**
 * "What the shell or a list shows may have changed" (decision 019): the notices the database sends
 * every node when data that nodes remember for a while changes — a user's enrolments, time zone,
 * roles or licences ("user:<id>"), or data every user sees, such as the tenant's settings or the
 * catalog ("all"). Triggers send them on PostgreSQL's channel `learner_changes` (LISTEN/NOTIFY, on
 * commit only); the API and the app forget what they remembered.
 */
export const CHANGES_CHANNEL = "learner_changes";

/** "chat:<channel id>": a message of that channel was posted, edited or deleted (decision 027); nothing to forget. */
export type DataChange =
  | { kind: "user"; userId: string }
  | { kind: "all" }
  | { kind: "chat"; channelId: string }
  /** "lti-tools": the operator's LTI tool registry changed (decision 043); only the registry reads it again. */
  | { kind: "ltiTools" };

/** The payload the LTI tool registry's writers send (decision 043). */
export const LTI_TOOLS_CHANGE = "lti-tools";

const USER = /^user:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const CHAT = /^chat:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** A notice's payload as the triggers write it; anything else reads as "all" (forgetting more is safe). */
export function parseChange(payload: string): DataChange {
  const user = USER.exec(payload);
  if (user) return { kind: "user", userId: user[1].toLowerCase() };
  const chat = CHAT.exec(payload);
  if (chat) return { kind: "chat", channelId: chat[1].toLowerCase() };
  return payload === LTI_TOOLS_CHANGE ? { kind: "ltiTools" } : { kind: "all" };
}

/** Where a node hears of changes: `subscribe` returns the way to stop listening. */
export interface ChangeFeed {
  subscribe(listener: (change: DataChange) => void): () => void;
}
