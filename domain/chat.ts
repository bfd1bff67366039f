/**
 * The communications hub's rules (spec 2.5, issue 16, decision 027), shared by the API and the page.
 * Pure: no imports of the project.
 */

/** A course's two channels: its announcements (`announcementChannelId`) and its chat. */
export const CHAT_CHANNELS = ["announcements", "chat"] as const;
export type ChatChannelKind = (typeof CHAT_CHANNELS)[number];

export const isChatChannel = (value: unknown): value is ChatChannelKind =>
  (CHAT_CHANNELS as readonly unknown[]).includes(value);

/** Who writes where: instructors post announcements, learners read them; everyone in the course chats. */
export function mayPostIn(channel: ChatChannelKind, roles: readonly string[]): boolean {
  return channel === "chat" || roles.includes("Instructor");
}

/** Unread: messages of others after the reader's marker that still exist. */
export function isUnread(message: { seq: number; mine: boolean; deleted: boolean }, readSeq: number): boolean {
  return !message.mine && !message.deleted && message.seq > readSeq;
}

/** A piece of a message as shown: plain text, or a link made clickable (http and https only). */
export type TextPiece = { kind: "text"; text: string } | { kind: "link"; text: string; href: string };

const URL_RE = /\bhttps?:\/\/[^\s<>"']+/gi;
/** Punctuation that ends a sentence rather than the address ("see https://x.org."). */
const TRAILING = /[.,;:!?)\]}]+$/;

/** Splits plain text into text and links; nothing is ever read as HTML. */
export function linkify(body: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of body.matchAll(URL_RE)) {
    let url = match[0];
    const trail = TRAILING.exec(url);
    if (trail) url = url.slice(0, url.length - trail[0].length);
    const start = match.index;
    if (start > last) pieces.push({ kind: "text", text: body.slice(last, start) });
    let href: string | null = null;
    try {
      href = new URL(url).href;
    } catch {
      href = null;
    }
    pieces.push(href ? { kind: "link", text: url, href } : { kind: "text", text: url });
    last = start + url.length;
  }
  if (last < body.length) pieces.push({ kind: "text", text: body.slice(last) });
  return pieces;
}
