import { useEffect, useState } from "react";
import { Form } from "react-router";
import { calendarSubscribeLinks } from "#domain/calendar-subscribe";
import { useTranslation } from "~/common/i18n";
import { INTENT, INTENT_FIELD } from "~/common/forms/intents";
import { COPIED_RESET_MS } from "../share-link";
import { useHydrated } from "../use-hydrated";
import { reportProblem } from "../analytics";

/**
 * The personal calendar feed: a private link to subscribe to in a calendar program, with
 * copy (JavaScript) or select-and-copy (without), a download, "make a new link" (the old one stops
 * working) and removal. Both forms work without JavaScript. Issue 26: beside the field, one-click
 * subscriptions — `webcal://` for the device's own calendar app, Google Calendar and Outlook.
 */
export function FeedLink({
  feed,
  commandIds,
}: {
  feed: { url: string; created: string } | null;
  commandIds: { create: string; delete: string };
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (copy !== "copied") return;
    const timer = setTimeout(() => setCopy("idle"), COPIED_RESET_MS);
    return () => clearTimeout(timer);
  }, [copy]);
  return (
    <section className="feed" id="calendar-feed" aria-labelledby="calendar-feed-title">
      <h2 id="calendar-feed-title">{t("calendar.feed.title")}</h2>
      <p>{t("calendar.feed.intro")}</p>
      {feed ? (
        <>
          <label htmlFor="calendar-feed-url" className="feed__label">
            {t("calendar.feed.label")}
          </label>
          <div className="feed__row">
            <input
              id="calendar-feed-url"
              className="feed__url"
              type="url"
              readOnly
              value={feed.url}
              aria-describedby="calendar-feed-since"
              onFocus={(e) => e.currentTarget.select()}
            />
            {hydrated ? (
              <button
                type="button"
                className="button button--primary"
                onClick={async () => {
                  try {
                    await navigator.clipboard.writeText(feed.url);
                    setCopy("copied");
                  } catch (err) {
                    setCopy("failed");
                    reportProblem("The link could not be copied", err);
                  }
                }}
              >
                {copy === "copied" ? t("course.copied") : t("course.copyLink")}
              </button>
            ) : null}
            <a className="button" href={feed.url} download="calendar.ics">
              {t("calendar.feed.download")}
            </a>
          </div>
          <SubscribeLinks url={feed.url} />
          <p role="status" className={copy === "failed" ? "feed__error" : "visually-hidden"}>
            {copy === "copied" ? t("course.copied") : copy === "failed" ? t("messages.linkNotCopied") : ""}
          </p>
          <p id="calendar-feed-since" className="feed__since">
            {t("calendar.feed.since", { date: feed.created })}
          </p>
          <div className="feed__actions">
            <Form method="post">
              <input type="hidden" name={INTENT_FIELD} value={INTENT.createFeed} />
              <input type="hidden" name="id" value={commandIds.create} />
              <button type="submit" className="button" aria-describedby="calendar-feed-renew">
                {t("calendar.feed.renew")}
              </button>
            </Form>
            <Form method="post">
              <input type="hidden" name={INTENT_FIELD} value={INTENT.deleteFeed} />
              <input type="hidden" name="id" value={commandIds.delete} />
              <button type="submit" className="link-button">
                {t("calendar.feed.delete")}
              </button>
            </Form>
          </div>
          <p id="calendar-feed-renew" className="feed__hint">
            {t("calendar.feed.renewHint")}
          </p>
        </>
      ) : (
        <Form method="post">
          <input type="hidden" name={INTENT_FIELD} value={INTENT.createFeed} />
          <input type="hidden" name="id" value={commandIds.create} />
          <button type="submit" className="button button--primary">
            {t("calendar.feed.create")}
          </button>
        </Form>
      )}
    </section>
  );
}

/** The feed added in one click, in the learner's calendar of choice. */
function SubscribeLinks({ url }: { url: string }) {
  const { t } = useTranslation();
  const links = calendarSubscribeLinks(url, t("calendar.feed.name"));
  const external = { target: "_blank", rel: "noopener noreferrer" } as const;
  return (
    <div className="feed__subscribe">
      <p id="calendar-feed-subscribe">{t("calendar.feed.addTo")}</p>
      <ul aria-labelledby="calendar-feed-subscribe">
        <li>
          <a className="button" href={links.webcal}>
            {t("calendar.feed.webcal")}
          </a>
        </li>
        <li>
          <a className="button" href={links.google} {...external}>
            {t("calendar.feed.google")}
          </a>
        </li>
        <li>
          <a className="button" href={links.outlook} {...external}>
            {t("calendar.feed.outlook")}
          </a>
        </li>
        <li>
          <a className="button" href={links.office365} {...external}>
            {t("calendar.feed.office365")}
          </a>
        </li>
      </ul>
    </div>
  );
}
