import { Form, useNavigation, useSearchParams } from "react-router";
import { useTranslation } from "~/i18n/lite";
import type { ApiMessage } from "#domain/contract/common";
import { DISCUSSION_BODY_MAX } from "#domain/limits";
import type {
  DiscussionData,
  DiscussionErrors,
  DiscussionFormState,
  DiscussionPostView,
} from "~/services/discussion.server";
import { Pagination } from "./course-filters";

export interface DiscussionProps extends DiscussionData {
  /** Field messages of the last refused post (from the action), shown in the form that sent it. */
  errors?: DiscussionErrors;
  /** What that form held: its text, and which post it replied to (null: a new post). */
  values?: DiscussionFormState["values"];
  /** The route action that calls postToDiscussion (keep the page's query, e.g. activityPathId). */
  formAction: string;
}

/** Plain text with its line breaks; React escapes it, so HTML in a post shows as typed. */
const BODY_STYLE = { whiteSpace: "pre-wrap", overflowWrap: "anywhere" } as const;

function Messages({ id, messages }: { id: string; messages: ApiMessage[] }) {
  const { t } = useTranslation();
  if (messages.length === 0) return null;
  return (
    <ul id={id} className="discussion__errors">
      {messages.map((m, i) => (
        <li key={`${m.code}-${i}`}>
          {t(`apiErrors.${m.code}`, { ...m.params, defaultValue: t("apiErrors.unknown") })}
        </li>
      ))}
    </ul>
  );
}

function PostForm(props: {
  idPrefix: string;
  commandId: string;
  activityPathId: string;
  parentPostId: string | null;
  label: string;
  submitLabel: string;
  formAction: string;
  errors?: DiscussionErrors;
  value?: string;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const sending =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "post" &&
    (navigation.formData.get("parentPostId") || null) === props.parentPostId;
  const fieldId = `${props.idPrefix}-body`;
  const errorId = `${props.idPrefix}-errors`;
  const fieldErrors = props.errors?.body ?? [];
  const formErrors = props.errors?.[""] ?? [];
  return (
    <Form method="post" action={props.formAction} className="discussion__form" preventScrollReset>
      <input type="hidden" name="intent" value="post" />
      <input type="hidden" name="id" value={props.commandId} />
      <input type="hidden" name="activityPathId" value={props.activityPathId} />
      {props.parentPostId ? <input type="hidden" name="parentPostId" value={props.parentPostId} /> : null}
      <label htmlFor={fieldId}>{props.label}</label>
      <textarea
        // A new id (after a successful post) starts an empty field.
        key={props.commandId}
        id={fieldId}
        name="body"
        rows={props.parentPostId ? 3 : 5}
        maxLength={DISCUSSION_BODY_MAX}
        required
        defaultValue={props.value ?? ""}
        aria-invalid={fieldErrors.length > 0 ? true : undefined}
        aria-describedby={fieldErrors.length > 0 ? errorId : undefined}
      />
      <Messages id={errorId} messages={fieldErrors} />
      <Messages id={`${props.idPrefix}-form-errors`} messages={formErrors} />
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
      <p className="discussion__body" style={BODY_STYLE}>
        {post.body}
      </p>
    </>
  );
}

/**
 * A discussion activity: write a post, read the thread (a page of posts, newest first, each with
 * its replies), reply. Plain forms posting to the route's action: works without JavaScript.
 */
export function Discussion({ thread, page, pageSize, commandIds, errors, values, formAction }: DiscussionProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const failedFor = values ? values.parentPostId : undefined;
  const formProps = (parentPostId: string | null) =>
    failedFor === parentPostId ? { errors, value: values?.body } : {};
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
