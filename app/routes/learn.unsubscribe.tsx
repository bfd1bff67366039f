import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.unsubscribe";
import { endpoints } from "#domain/contract/endpoints";
import { UNSUBSCRIBE_KINDS } from "#domain/mail-preferences";
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
  return data({ ...answer, done: false }, { headers: { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" } });
}

export async function action({ url, request, context }: Route.ActionArgs) {
  const link = linkOf(url);
  const form = await readForm(request);
  const oneClick = form.get("List-Unsubscribe") === "One-Click";
  if (!oneClick && intentOf(form) !== INTENT.unsubscribe) badRequest();
  const answer = await publicLms(context).command(endpoints.unsubscribe, link).catch(notFound);
  return data({ ...answer, done: true }, { headers: { "Cache-Control": "no-store" } });
}

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const { t } = useTranslation();
  const page = done ?? loaded;
  const kind = t(`emailPrefs.unsubscribe.kind.${page.kind}`);
  return (
    <section className="error-page unsubscribe" aria-labelledby="unsubscribe-title">
      <h1 id="unsubscribe-title">{t("emailPrefs.unsubscribe.title")}</h1>
      {page.done || !page.subscribed ? (
        <p role="status">{t("emailPrefs.unsubscribe.done", { kind, email: page.email })}</p>
      ) : (
        <>
          <p>{t("emailPrefs.unsubscribe.question", { kind, email: page.email })}</p>
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
