/** A discussion as the page shows it (`discussion.server.ts` makes it, `<Discussion>` renders it). */

/** One post as the page shows it: plain-text body, author, the time already formatted. */
export interface DiscussionPostView {
  id: string;
  author: string;
  mine: boolean;
  /** Plain text; rendered as text (never as HTML). */
  body: string;
  /** ISO instant, for <time dateTime>. */
  createdAt: string;
  /** createdAt in the learner's locale and time zone. */
  time: string;
}

interface DiscussionThreadView {
  activityPathId: string;
  /** New posts are accepted; a closed (expired) discussion is read-only. */
  open: boolean;
  totalCount: number;
  posts: (DiscussionPostView & { replies: DiscussionPostView[] })[];
}

/** Everything `<Discussion>` needs from the loader (spread it into the component). */
export interface DiscussionData {
  thread: DiscussionThreadView;
  page: number;
  pageSize: number;
  /** Fresh per render: the new post's id, which makes a repeated submit one post. */
  commandIds: { post: string; reply: string };
}
