import { commandErrorToast } from "~/services/command-errors.server";
import { data, Form, useActionData, useLoaderData, useNavigation } from "react-router";
import { z } from "zod";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.profile";
import { endpoints } from "#domain/contract/endpoints";
import { isTimeZone } from "#domain/time-zones";
import { state } from "~/services/request.server";
import { LmsError } from "~/services/lms.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { redirectWithToast } from "~/services/toast.server";
import { parseSubmission } from "~/common/forms/parse";
import { formError } from "~/common/forms/errors";
import { INTENT } from "~/common/forms/intents";
import { FieldErrors } from "~/components/field-errors";
import { ProfileTabs } from "~/components/profile-tabs";
import type { ZonePicker } from "~/common/views/time-zones";
import { TimeZonePicker } from "~/components/time-zone-picker";
import { zonePicker } from "~/services/time-zones.server";
import { getInstance, getLocale } from "~/services/i18n.server";

export const handle = {
  title: (_d: unknown, t: (k: string) => string) => t("profile.title"),
  breadcrumb: (_d: unknown, t: (k: string) => string) => ({ label: t("profile.title") }),
};

/** Spec 2.9 'Preferred time zone': one of the runtime's IANA zones (the API checks it again). */
const timezoneSchema = z.object({
  intent: z.literal(INTENT.setTimezone),
  timezone: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .refine(isTimeZone, { message: formError("invalidTimezone") }),
  commandId: z.uuid(),
});

/**
 * /learn/profile and /learn/profile/time-zone (spec 2.1, 2.9): the tabs are links, so both work
 * without JavaScript. Personal info reads the user (the shell has it), their units and their
 * mini-group in parallel; the time-zone tab lists every zone with its offset now.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const s = state(context);
  const shell = await s.requireLearner();
  // `url`, not the request's: a client navigation asks for `/learn/profile/time-zone.data` (decision 013).
  const tab = url.pathname.endsWith("/time-zone") ? "timeZone" : "personal";
  const u = shell.user;
  if (tab === "timeZone") {
    // Issue 25 item 4: IANA's current names, grouped and findable; an older saved name shown under its new one.
    return {
      tab,
      picker: zonePicker(getLocale(context), new Date(), u.timezone, getInstance(context).t),
      commandId: crypto.randomUUID(),
    } as const;
  }
  const lms = await s.lms();
  const [units, members] = await Promise.all([
    lms.get(endpoints.units(u.id)),
    lms.get(endpoints.miniGroupMembers(u.id)),
  ]);
  return {
    tab,
    user: {
      firstName: u.first_name,
      middleName: u.middle_name,
      lastName: u.last_name,
      email: u.email,
      role: u.role,
      department: u.department,
      externalId: u.external_id,
      tenant: u.tenant,
      timezone: u.timezone,
    },
    units: units.items,
    members: members.items,
  } as const;
}

export async function action({ request, context }: Route.ActionArgs) {
  const s = state(context);
  const shell = await s.requireLearner();
  const form = await readForm(request);
  switch (intentOf(form)) {
    case INTENT.setTimezone: {
      const submission = parseSubmission(form, timezoneSchema);
      if (submission.status !== "success") return data(submission.reply(), { status: 400 });
      const lms = await s.lms();
      try {
        await lms.command(endpoints.setTimezone(shell.user.id), {
          timezone: submission.value.timezone,
          commandId: submission.value.commandId,
        });
      } catch (err) {
        if (err instanceof LmsError && err.status === 400)
          return data(submission.reply({ fieldErrors: { timezone: [formError("invalidTimezone")] } }), {
            status: 400,
          });
        // Too many requests and any other refusal: the toast (spec 8), never a 500.
        if (err instanceof LmsError)
          return redirectWithToast("/learn/profile/time-zone", commandErrorToast(err), s.config);
        throw err;
      }
      return redirectWithToast(
        "/learn/profile/time-zone",
        { type: "success", key: "profile.timeZone.saved", values: { zone: submission.value.timezone } },
        s.config,
      );
    }
    default:
      badRequest();
  }
}

export default function Profile() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="profile" aria-labelledby="profile-title">
      <h1 id="profile-title">{t("profile.title")}</h1>
      <ProfileTabs />
      {page.tab === "personal" ? (
        <PersonalInfo page={page} />
      ) : (
        <TimeZones picker={page.picker} commandId={page.commandId} />
      )}
    </section>
  );
}

type PersonalPage = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { tab: "personal" }>;

function PersonalInfo({ page }: { page: PersonalPage }) {
  const { t } = useTranslation();
  const u = page.user;
  const rows: [string, string | null][] = [
    [t("profile.personal.firstName"), u.firstName],
    [t("profile.personal.middleName"), u.middleName],
    [t("profile.personal.lastName"), u.lastName],
    [t("profile.personal.email"), u.email],
    [t("profile.personal.role"), u.role],
    [t("profile.personal.department"), u.department],
    [t("profile.personal.externalId"), u.externalId],
    [t("profile.personal.tenant"), u.tenant],
    [t("profile.personal.timeZone"), u.timezone ?? "UTC"],
  ];
  return (
    <div className="profile__panel">
      <section aria-labelledby="profile-personal">
        <h2 id="profile-personal">{t("profile.personal.tab")}</h2>
        <dl className="profile__facts">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value || "—"}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="profile-units">
        <h2 id="profile-units">{t("profile.personal.units")}</h2>
        {page.units.length === 0 ? (
          <p>{t("profile.personal.noUnits")}</p>
        ) : (
          <ul className="profile__units">
            {page.units.map((unit) => (
              <li key={unit.id}>
                {unit.name}
                {unit.is_primary ? (
                  <>
                    {" "}
                    <span className="badge">{t("profile.personal.primary")}</span>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="profile-group">
        <h2 id="profile-group">{t("profile.personal.miniGroup")}</h2>
        {page.members.length === 0 ? (
          <p>{t("profile.personal.noMiniGroup")}</p>
        ) : (
          // Scrolls inside itself on a phone: reachable by keyboard.
          <div className="table-scroll" tabIndex={0} role="group" aria-labelledby="profile-group">
            <table className="profile__members stack-on-phone">
              <caption className="visually-hidden">{t("profile.personal.miniGroupCaption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("profile.personal.firstName")}</th>
                  <th scope="col">{t("profile.personal.middleName")}</th>
                  <th scope="col">{t("profile.personal.lastName")}</th>
                  <th scope="col">{t("profile.personal.email")}</th>
                  <th scope="col">{t("profile.personal.primaryUnit")}</th>
                </tr>
              </thead>
              <tbody>
                {page.members.map((m) => (
                  <tr key={m.id}>
                    <td data-label={t("profile.personal.firstName")}>{m.first_name}</td>
                    <td data-label={t("profile.personal.middleName")}>{m.middle_name ?? "—"}</td>
                    <td data-label={t("profile.personal.lastName")}>{m.last_name}</td>
                    <td data-label={t("profile.personal.email")}>{m.email}</td>
                    <td data-label={t("profile.personal.primaryUnit")}>{m.primary_unit ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

function TimeZones({ picker, commandId }: { picker: ZonePicker; commandId: string }) {
  const { t } = useTranslation();
  const reply = useActionData<typeof action>();
  const errors = reply && "error" in reply ? (reply.error?.timezone ?? undefined) : undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === INTENT.setTimezone;
  return (
    <div className="profile__panel">
      <h2 id="profile-zone">{t("profile.timeZone.tab")}</h2>
      <p>{t("profile.timeZone.current", { zone: picker.currentLabel })}</p>
      <Form method="post" className="zones" aria-labelledby="profile-zone">
        <input type="hidden" name="intent" value={INTENT.setTimezone} />
        <input type="hidden" name="commandId" value={commandId} />
        <FieldErrors id="timezone-errors" errors={errors} />
        <TimeZonePicker picker={picker} describedBy={errors ? "timezone-errors" : undefined} />
        <div className="zones__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? t("profile.timeZone.saving") : t("profile.timeZone.save")}
          </button>
        </div>
      </Form>
    </div>
  );
}
