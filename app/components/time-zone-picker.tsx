import { useMemo, useState, useSyncExternalStore } from "react";
import { useTranslation } from "~/common/i18n";
import type { ZoneGroup, ZonePicker } from "~/common/views/time-zones";
import { zoneMatches } from "~/common/time-zone-search";
import { useHydrated } from "./use-hydrated";

const noSubscription = () => () => {};
const deviceZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone ?? null;
const noZone = () => null;

const isolate = (text: string) => `\u2066${text}\u2069`;

/**
 * Issue 25 item 4: the profile's time-zone picker. Without JavaScript a grouped `<select>` (the learner's
 * own zone first, then every zone by region); with JavaScript a search box above the same list, shown as
 * a box of ten rows, which finds zones by city, country, zone name or offset ("Kyiv", "Ukraine", "India",
 * "+05:30"), and the browser's own zone is offered beside the learner's.
 */
export function TimeZonePicker({ picker, describedBy }: { picker: ZonePicker; describedBy?: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [query, setQuery] = useState("");
  const [chosen, setChosen] = useState(picker.groups[0]?.zones[0]?.value ?? picker.current);
  // The browser's own zone: none on the server and while hydrating, so both render the same list.
  const browserZone = useSyncExternalStore(noSubscription, deviceZone, noZone);

  const groups = useMemo((): ZoneGroup[] => {
    const [suggested, ...regions] = picker.groups;
    if (query.trim())
      return regions
        .map((g) => ({ ...g, zones: g.zones.filter((z) => zoneMatches(z, query)) }))
        .filter((g) => g.zones.length > 0);
    const browser = browserZone
      ? regions
          .flatMap((g) => g.zones)
          .find((z) => z.ids.includes(browserZone) && z.value !== suggested.zones[0]?.value)
      : undefined;
    if (!browser) return picker.groups;
    const device = { ...browser, label: `${browser.label} — ${t("profile.timeZone.browserZone")}` };
    return [{ ...suggested, zones: [...suggested.zones, device] }, ...regions];
  }, [picker.groups, query, browserZone, t]);
  const shown = groups.reduce((n, g) => n + g.zones.length, 0);
  const chosenZone = picker.groups.flatMap((g) => g.zones).find((z) => z.value === chosen);

  return (
    <div className="zone-picker">
      {hydrated ? (
        <p className="zones__filter">
          <label htmlFor="zone-filter">{t("profile.timeZone.filter")}</label>
          <input
            id="zone-filter"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            aria-controls="zone-select"
            aria-describedby="zone-filter-hint"
            autoComplete="off"
          />
          <span id="zone-filter-hint" className="zones__hint">
            {t("profile.timeZone.filterHint")}
          </span>
          <span role="status" className="zones__count">
            {t("profile.timeZone.count", { count: shown })}
          </span>
        </p>
      ) : null}
      <label htmlFor="zone-select" className="zones__label">
        {t("profile.timeZone.legend")}
      </label>
      <select
        id="zone-select"
        className="zones__select"
        // With JavaScript the list may be filtered past the chosen zone: the hidden field below sends it.
        name={hydrated ? undefined : "timezone"}
        size={hydrated ? 10 : undefined}
        value={hydrated ? chosen : undefined}
        defaultValue={hydrated ? undefined : chosen}
        onChange={(e) => setChosen(e.currentTarget.value)}
        aria-describedby={describedBy}
      >
        {groups.map((g) => (
          <optgroup key={g.key} label={g.label}>
            {g.zones.map((z) => (
              <option key={`${g.key}:${z.value}:${z.label}`} value={z.value}>
                {`${z.label} (${isolate(z.offset)})`}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      {hydrated ? (
        <>
          <input type="hidden" name="timezone" value={chosen} />
          <p className="zones__chosen" aria-live="polite">
            {t("profile.timeZone.chosen", { zone: chosenZone ? `${chosenZone.label} (${chosenZone.offset})` : chosen })}
          </p>
        </>
      ) : null}
    </div>
  );
}
