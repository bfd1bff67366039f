import { Form, useNavigation, useSearchParams } from "react-router";
import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useTranslation } from "~/common/i18n";
import { DISCUSSION_BODY_MAX } from "#domain/limits";
import { discussionPostSchema } from "~/common/forms/discussion";
import { INTENT } from "~/common/forms/intents";
import { parseSubmission } from "~/common/forms/parse";
import { FieldErrors } from "./field-errors";
import { Pagination } from "./course-filters";
import { type DiscussionData, type DiscussionPostView } from "~/common/views/discussion";
import { useTypedBeforeHydration } from "./use-typed-before-hydration";

export interface DiscussionProps extends DiscussionData {
  /** The action's answer to the last refused post, and which form sent it (null: a new post). */
  lastResult?: { submission: SubmissionResult<string[]>; parentPostId: string | null } | null;
  /** The route action that calls postToDiscussion (keep the page's query, e.g. activityPathId). */
  formAction: string;
}

/** Plain text with its line breaks; React escapes it, so HTML in a post shows as typed. */
const BODY_STYLE = { whiteSpace: "pre-wrap", overflowWrap: "anywhere" } as const;

function PostForm(props: {
  idPrefix: string;
  commandId: string;
  activityPathId: string;
  parentPostId: string | null;
  label: string;
  submitLabel: string;
  formAction: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    // A new command id (after a successful post) is a new, empty form.
    id: `${props.idPrefix}-${props.commandId}`,
    lastResult: props.lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseSubmission(formData, discussionPostSchema),
  });
  useTypedBeforeHydration(fields.body.id);
  const sending =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === INTENT.post &&
    (navigation.formData.get("parentPostId") || null) === props.parentPostId;
  return (
    <Form
      method="post"
      action={props.formAction}
      className="discussion__form"
      preventScrollReset
      {...getFormProps(form)}
    >
      <input type="hidden" name="intent" value={INTENT.post} />
      <input type="hidden" name="id" value={props.commandId} />
      <input type="hidden" name="activityPathId" value={props.activityPathId} />
      {props.parentPostId ? <input type="hidden" name="parentPostId" value={props.parentPostId} /> : null}
      <label htmlFor={fields.body.id}>{props.label}</label>
      <textarea
        {...getTextareaProps(fields.body, { ariaAttributes: true })}
        key={fields.body.key}
        rows={props.parentPostId ? 3 : 5}
        maxLength={DISCUSSION_BODY_MAX}
        required
      />
      <FieldErrors id={fields.body.errorId} errors={fields.body.errors} className="discussion__errors" />
      <FieldErrors id={form.errorId} errors={form.errors} className="discussion__errors" />
      <button type="submit" className="button button--primary" disabled={sending}>
        {sending ? t("discussion.sending") : props.submitLabel}
      </button>
    </Form>
  );
}

function PostBody({ post, heading: Heading }: { post: DiscussionPostView; heading: "h3" | "h4" }) {
  const { t } = useTranslation();
  return (
    <>
      <header className="discussion__meta">
        <Heading className="discussion__author" id={`post-${post.id}-author`}>
          {post.author}
          {post.mine ? <span className="tag discussion__mine"> {t("discussion.you")}</span> : null}
        </Heading>
        <time dateTime={post.createdAt}>{post.time}</time>
      </header>
      <p className="discussion__body" style={BODY_STYLE} dir="auto">
        {post.body}
      </p>
    </>
  );
}

/**
 * A discussion activity: write a post, read the thread (a page of posts, newest first, each with
 * its replies), reply. Plain forms posting to the route's action: works without JavaScript.
 */
export default function Discussion({ thread, page, pageSize, commandIds, lastResult, formAction }: DiscussionProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const failedFor = lastResult ? lastResult.parentPostId : undefined;
  const formProps = (parentPostId: string | null) =>
    lastResult && failedFor === parentPostId ? { lastResult: lastResult.submission } : {};
  return (
    <section className="discussion" aria-labelledby="discussion-title">
      <h2 id="discussion-title">{t("discussion.title")}</h2>
      {thread.open ? (
        <PostForm
          idPrefix="discussion-new"
          commandId={commandIds.post}
          activityPathId={thread.activityPathId}
          parentPostId={null}
          label={t("discussion.newPostLabel")}
          submitLabel={t("discussion.submit")}
          formAction={formAction}
          {...formProps(null)}
        />
      ) : (
        <p className="notice">{t("discussion.closed")}</p>
      )}
      {thread.posts.length === 0 ? (
        <p className="empty-state">{t(thread.totalCount === 0 ? "discussion.empty" : "discussion.pageEmpty")}</p>
      ) : (
        <ol className="discussion__posts" aria-label={t("discussion.posts")}>
          {thread.posts.map((post) => (
            <li key={post.id}>
              <article className="discussion__post" id={`post-${post.id}`} aria-labelledby={`post-${post.id}-author`}>
                <PostBody post={post} heading="h3" />
                {post.replies.length > 0 ? (
                  <ol className="discussion__replies" aria-label={t("discussion.repliesTo", { author: post.author })}>
                    {post.replies.map((reply) => (
                      <li key={reply.id}>
                        <article
                          className="discussion__post discussion__post--reply"
                          id={`post-${reply.id}`}
                          aria-labelledby={`post-${reply.id}-author`}
                        >
                          <PostBody post={reply} heading="h4" />
                        </article>
                      </li>
                    ))}
                  </ol>
                ) : null}
                {thread.open ? (
                  <details className="discussion__reply" open={failedFor === post.id || undefined}>
                    <summary>{t("discussion.reply")}</summary>
                    <PostForm
                      idPrefix={`reply-${post.id}`}
                      commandId={commandIds.reply}
                      activityPathId={thread.activityPathId}
                      parentPostId={post.id}
                      label={t("discussion.replyLabel", { author: post.author })}
                      submitLabel={t("discussion.submitReply")}
                      formAction={formAction}
                      {...formProps(post.id)}
                    />
                  </details>
                ) : null}
              </article>
            </li>
          ))}
        </ol>
      )}
      <Pagination params={params} page={page} total={thread.totalCount} pageSize={pageSize} />
    </section>
  );
}
