import { NavLink } from "react-router";
import { useTranslation } from "~/common/i18n";

/** Spec 2.9's profile tabs, and issue 31's e-mail preferences: links, so they work without JavaScript. */
export function ProfileTabs() {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("profile.tabs")} className="tabs">
      <ul>
        <li>
          <NavLink to="/learn/profile" end className="tabs__tab">
            {t("profile.personal.tab")}
          </NavLink>
        </li>
        <li>
          <NavLink to="/learn/profile/time-zone" className="tabs__tab">
            {t("profile.timeZone.tab")}
          </NavLink>
        </li>
        <li>
          <NavLink to="/learn/profile/email" className="tabs__tab">
            {t("emailPrefs.tab")}
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}
