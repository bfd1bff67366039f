import { DISCUSSION_PAGE_SIZE, type DiscussionPost, type DiscussionThread } from "#domain/contract/discussions";
import { safeTarget } from "./auth.server";
import { dateFormatter, type DateFormatter } from "./format.server";
import { LmsError, type LmsClient } from "./lms.server";
import { redirectWithToast } from "./toast.server";
import { commandErrorToast } from "./command-errors.server";
import type { AppConfig } from "./config.server";
import { formError } from "~/common/forms/errors";
import { endpoints } from "#domain/contract/endpoints";
import { type DiscussionData, type DiscussionPostView } from "~/common/views/discussion";

/** What a post form submitted, checked by its schema (`~/common/forms/discussion`). */
export interface DiscussionInput {
  id: string;
  activityPathId: string;
  parentPostId?: string | null;
  body: string;
}
/** A refused post: the API's field messages as form errors (`body`, and "" for the rest). */
export type DiscussionPostResult =
  { kind: "redirect"; response: Response } | { kind: "invalid"; fieldErrors: Record<string, string[]> };

const UTC_EN = dateFormatter("en-US", "UTC");

/** A page number from the URL (`?page=`): a positive integer, else 1. */
export function discussionPage(raw: string | number | null | undefined): number {
  const n = typeof raw === "number" ? raw : Number.parseInt(String(raw ?? ""), 10);
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
}

function view(post: DiscussionPost, fmt: DateFormatter): DiscussionPostView {
  return {
    id: post.id,
    author: post.author.name,
    mine: post.mine,
    body: post.body,
    createdAt: post.createdAt,
    time: fmt.dateTime(post.createdAt) ?? "",
  };
}

/**
 * One page of a discussion's thread. `null` when the learner may not read it (not a discussion,
 * not available, not their course): the API answers 404 for all of these alike.
 */
export async function loadDiscussion(
  lms: LmsClient,
  activityPathId: string,
  page: number | string | null | undefined,
  fmt: DateFormatter = UTC_EN,
  pageSize: number = DISCUSSION_PAGE_SIZE,
): Promise<DiscussionData | null> {
  const p = discussionPage(page);
  let thread: DiscussionThread;
  try {
    thread = await lms.get(endpoints.discussionPosts(activityPathId), { page: p, pageSize });
  } catch (err) {
    if (err instanceof LmsError && err.status === 404) return null;
    throw err;
  }
  return {
    thread: {
      activityPathId: thread.activityPathId,
      open: thread.open,
      totalCount: thread.totalCount,
      posts: thread.data.map((post) => ({ ...view(post, fmt), replies: post.replies.map((r) => view(r, fmt)) })),
    },
    page: thread.page,
    pageSize: thread.pageSize,
    commandIds: { post: crypto.randomUUID(), reply: crypto.randomUUID() },
  };
}

/**
 * Post/redirect/get for a new post or a reply. Success: back to `backUrl` with the "discussion.posted"
 * toast, at the new post (a new top-level post is first on page 1, so the page is dropped; a reply
 * stays on its page). A 400 gives the field messages for the route to re-render; any other refusal
 * (404, 422 discussionClosed, 409…) goes back with a critical toast `apiErrors.<code>`.
 */
export async function postToDiscussion(
  lms: LmsClient,
  config: AppConfig,
  input: DiscussionInput,
  /** A path of the discussion's own page (the route builds it; it never comes from the form). */
  backUrl: string,
): Promise<DiscussionPostResult> {
  const back = new URL(backUrl, config.appUrl);
  const backTo = (hash = "") => safeTarget(`${back.pathname}${back.search}${hash}`, config);
  const parentPostId = input.parentPostId || null;
  try {
    await lms.command(endpoints.createDiscussionPosts, {
      id: input.id,
      activityPathId: input.activityPathId,
      ...(parentPostId ? { parentPostId } : {}),
      body: input.body,
    });
  } catch (err) {
    if (!(err instanceof LmsError)) throw err;
    if (err.status === 400) {
      const fieldErrors: Record<string, string[]> = {};
      for (const [field, list] of Object.entries(err.messages))
        (fieldErrors[field === "body" ? "body" : ""] ??= []).push(...list.map((m) => formError(m.code, m.params)));
      return { kind: "invalid", fieldErrors };
    }
    return {
      kind: "redirect",
      response: await redirectWithToast(backTo(), commandErrorToast(err), config),
    };
  }
  if (!parentPostId) back.searchParams.delete("page");
  return {
    kind: "redirect",
    response: await redirectWithToast(
      backTo(`#post-${input.id}`),
      {
        type: "success",
        key: "discussion.posted",
      },
      config,
    ),
  };
}
