import { data, Form, useLoaderData, useNavigation } from "react-router";
import { z } from "zod";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.profile.email";
import { endpoints } from "#domain/contract/endpoints";
import { MAIL_KINDS } from "#domain/mail-preferences";
import { isSupportedLocale } from "#domain/locales";
import { state } from "~/services/request.server";
import { getLocale } from "~/services/i18n.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { redirectWithToast } from "~/services/toast.server";
import { parseSubmission } from "~/common/forms/parse";
import { INTENT } from "~/common/forms/intents";
import { ProfileTabs } from "~/components/profile-tabs";

export const handle = {
  title: (_d: unknown, t: (k: string) => string) => t("emailPrefs.title"),
  breadcrumb: (_d: unknown, t: (k: string) => string) => [
    { label: t("profile.title"), href: "/learn/profile" },
    { label: t("emailPrefs.tab") },
  ],
};

/** A checkbox of a form without JavaScript: present ("on") when ticked, absent otherwise. */
const checkbox = z
  .literal("on")
  .optional()
  .transform((v) => v === "on");

/** Issue 31 item 2: the kinds of e-mail, and one daily digest instead of a message as each thing comes. */
const preferencesSchema = z.object({
  intent: z.literal(INTENT.setEmailPreferences),
  reinforcement: checkbox,
  dueReminders: checkbox,
  announcements: checkbox,
  grades: checkbox,
  delivery: z.enum(["immediate", "daily"]),
});

/**
 * /learn/profile/email (issue 31 item 2): which e-mails the learner gets — reinforcement questions,
 * due-date reminders, announcements — and whether as they come or in one daily digest. A plain form
 * (no JavaScript needed); saving also notes the page's language, which the e-mails are written in.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const s = state(context);
  await s.requireLearner();
  const lms = await s.lms();
  return { prefs: await lms.get(endpoints.emailPreferences) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const s = state(context);
  await s.requireLearner();
  const form = await readForm(request);
  if (intentOf(form) !== INTENT.setEmailPreferences) badRequest();
  const submission = parseSubmission(form, preferencesSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { reinforcement, dueReminders, announcements, grades, delivery } = submission.value;
  const locale = getLocale(context);
  const lms = await s.lms();
  await lms.put(endpoints.saveEmailPreferences, {
    reinforcement,
    dueReminders,
    announcements,
    grades,
    dailyDigest: delivery === "daily",
    ...(isSupportedLocale(locale) ? { locale } : {}),
  });
  return redirectWithToast("/learn/profile/email", { type: "success", key: "emailPrefs.saved" }, s.config);
}

export default function EmailPreferences() {
  const { prefs } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === INTENT.setEmailPreferences;
  return (
    <section className="profile" aria-labelledby="profile-title">
      <h1 id="profile-title">{t("profile.title")}</h1>
      <ProfileTabs />
      <div className="profile__panel">
        <h2 id="email-title">{t("emailPrefs.title")}</h2>
        <p>{t("emailPrefs.intro")}</p>
        <Form method="post" className="email-prefs" aria-labelledby="email-title">
          <input type="hidden" name="intent" value={INTENT.setEmailPreferences} />
          <fieldset>
            <legend>{t("emailPrefs.kinds")}</legend>
            {MAIL_KINDS.map((kind) => (
              <div className="email-prefs__choice" key={kind}>
                <input
                  type="checkbox"
                  id={`pref-${kind}`}
                  name={kind}
                  defaultChecked={prefs[kind]}
                  aria-describedby={`pref-${kind}-hint`}
                />
                <label htmlFor={`pref-${kind}`}>{t(`emailPrefs.kind.${kind}`)}</label>
                <p id={`pref-${kind}-hint`} className="email-prefs__hint">
                  {t(`emailPrefs.hint.${kind}`)}
                </p>
              </div>
            ))}
          </fieldset>
          <fieldset>
            <legend>{t("emailPrefs.delivery")}</legend>
            {(["immediate", "daily"] as const).map((value) => (
              <div className="email-prefs__choice" key={value}>
                <input
                  type="radio"
                  id={`delivery-${value}`}
                  name="delivery"
                  value={value}
                  defaultChecked={prefs.dailyDigest === (value === "daily")}
                  aria-describedby={`delivery-${value}-hint`}
                />
                <label htmlFor={`delivery-${value}`}>{t(`emailPrefs.deliveryValue.${value}`)}</label>
                <p id={`delivery-${value}-hint`} className="email-prefs__hint">
                  {t(`emailPrefs.deliveryHint.${value}`)}
                </p>
              </div>
            ))}
          </fieldset>
          <p className="email-prefs__note">{t("emailPrefs.languageNote")}</p>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? t("emailPrefs.saving") : t("emailPrefs.save")}
          </button>
        </Form>
      </div>
    </section>
  );
}
