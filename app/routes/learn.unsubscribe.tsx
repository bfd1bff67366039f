import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.unsubscribe";
import { endpoints } from "#domain/contract/endpoints";
import { MAIL_KINDS, UNSUBSCRIBE_KINDS } from "#domain/mail-preferences";
import { publicLms } from "~/services/user.server";
import { LmsError } from "~/services/lms.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { INTENT } from "~/common/forms/intents";

export const handle = { title: (_: unknown, t: (k: string) => string) => t("emailPrefs.unsubscribe.title") };

/** The link's parameters as an e-mail carries them: the learner, the kind, the signature. */
const linkSchema = z.object({
  u: z.uuid(),
  k: z.enum(UNSUBSCRIBE_KINDS),
  t: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
});

function linkOf(url: URL) {
  const parsed = linkSchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw data("link-invalid", { status: 404 });
  return { user: parsed.data.u, kind: parsed.data.k, token: parsed.data.t };
}

/** What the unsubscribe turned off, carried by its page's "Subscribe again" form. */
const restoreSchema = z.array(z.enum(MAIL_KINDS)).max(MAIL_KINDS.length);

const notFound = (err: unknown) => {
  if (err instanceof LmsError && [400, 404].includes(err.status)) throw data("link-invalid", { status: 404 });
  throw err;
};

/**
 * /learn/unsubscribe?u=…&k=…&t=… (issue 31 item 2): the link every e-mail the learner controls carries,
 * signed for that learner and kind — no sign-in. A GET never unsubscribes (mail scanners open links):
 * it says what the button will stop. The POST does it: the page's button, or a mail client's RFC 8058
 * one-click (`List-Unsubscribe=One-Click` posted to this same URL, no cookie, no origin).
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const link = linkOf(url);
  const answer = await publicLms(context).get(endpoints.unsubscribeLink, link).catch(notFound);
  return data(
    { ...answer, done: false, again: false },
    { headers: { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" } },
  );
}

export async function action({ url, request, context }: Route.ActionArgs) {
  const link = linkOf(url);
  const form = await readForm(request);
  const oneClick = form.get("List-Unsubscribe") === "One-Click";
  const intent = intentOf(form);
  if (!oneClick && intent !== INTENT.unsubscribe && intent !== INTENT.resubscribe) badRequest();
  const again = !oneClick && intent === INTENT.resubscribe;
  const restore = restoreSchema.safeParse(form.getAll("restore"));
  if (again && !restore.success) badRequest();
  const answer = await publicLms(context)
    .command(endpoints.unsubscribe, again ? { ...link, subscribe: true, restore: restore.data } : link)
    .catch(notFound);
  return data({ ...answer, done: true, again }, { headers: { "Cache-Control": "no-store" } });
}

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const { t } = useTranslation();
  const page = done ?? loaded;
  const again = done?.again ?? false;
  const kind = t(`emailPrefs.unsubscribe.kind.${page.kind}`);
  return (
    <section className="error-page unsubscribe" aria-labelledby="unsubscribe-title">
      <h1 id="unsubscribe-title">{t("emailPrefs.unsubscribe.title")}</h1>
      {!page.subscribed ? (
        <>
          <p role="status">{t("emailPrefs.unsubscribe.done", { kind, email: page.email })}</p>
          {page.done && !again ? (
            // A click by mistake is undone here, from the same signed link.
            <Form method="post">
              <input type="hidden" name="intent" value={INTENT.resubscribe} />
              {(page.restore ?? []).map((k) => (
                <input key={k} type="hidden" name="restore" value={k} />
              ))}
              <button type="submit" className="button">
                {t("emailPrefs.unsubscribe.undo")}
              </button>
            </Form>
          ) : null}
        </>
      ) : (
        <>
          {again ? (
            <p role="status">{t("emailPrefs.unsubscribe.again", { kind, email: page.email })}</p>
          ) : (
            <p>{t("emailPrefs.unsubscribe.question", { kind, email: page.email })}</p>
          )}
          <Form method="post">
            <input type="hidden" name="intent" value={INTENT.unsubscribe} />
            <button type="submit" className="button button--primary">
              {t("emailPrefs.unsubscribe.button")}
            </button>
          </Form>
        </>
      )}
      <p>
        {t("emailPrefs.unsubscribe.more")}{" "}
        <Link to="/learn/profile/email">{t("emailPrefs.unsubscribe.preferences")}</Link>
      </p>
    </section>
  );
}
