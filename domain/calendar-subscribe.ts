/**
 * Issue 26 (calendar feed): one-click subscriptions to the learner's private feed — `webcal://` (Apple
 * Calendar, Outlook on the desktop, most phone calendars open it themselves), Google Calendar's and
 * Outlook's pages that add a calendar from the web. Pure; the feed's own URL stays the one to copy.
 */

interface SubscribeLinks {
  /** The feed's address with the `webcal` scheme: the operating system hands it to its calendar app. */
  webcal: string;
  /** Google Calendar's "add by URL", with the feed filled in (it fetches the feed over https). */
  google: string;
  /** Outlook.com's "subscribe from web" (personal Microsoft accounts). */
  outlook: string;
  /** Outlook on the web for work and school accounts (Microsoft 365). */
  office365: string;
}

/** The links for a feed at an http(s) URL; `name` is the calendar's name Outlook shows. */
export function calendarSubscribeLinks(feedUrl: string, name: string): SubscribeLinks {
  const url = new URL(feedUrl);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`not a web address: ${feedUrl}`);
  const webcal = `webcal://${url.host}${url.pathname}${url.search}`;
  const addFromWeb = (host: string) =>
    `https://${host}/calendar/0/addfromweb?${new URLSearchParams({ url: url.href, name })}`;
  return {
    webcal,
    google: `https://calendar.google.com/calendar/render?${new URLSearchParams({ cid: webcal })}`,
    outlook: addFromWeb("outlook.live.com"),
    office365: addFromWeb("outlook.office.com"),
  };
}
