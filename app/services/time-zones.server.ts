/**
 * Issue 25 item 4: the time zones a person can find. The list is IANA's current canonical names from
 * Unicode CLDR's BCP 47 time-zone data (`cldr-bcp47`, `_iana`: Europe/Kyiv, Asia/Kolkata, not the
 * legacy Europe/Kiev, Asia/Calcutta that Node 24's ICU still lists), with every older name of each zone
 * kept as an alias — a learner who saved one keeps it, shown under the current name. Each zone's country
 * comes from its BCP 47 key (`uaiev` → UA) and is named in the page's language by `Intl.DisplayNames`;
 * the zone's generic name ("Eastern European Time", translated) by `Intl.DateTimeFormat`. The city is
 * IANA's (English) name.
 */
import timezoneData from "cldr-bcp47/bcp47/timezone.json";
import { formatOffset, isTimeZone, zoneOffsetMinutes } from "#domain/time-zones";
import type { ZoneChoice, ZoneGroup, ZonePicker } from "~/common/views/time-zones";
import { foldSearch } from "~/common/time-zone-search";

interface CldrZone {
  _description?: string;
  _alias?: string;
  _iana?: string;
  _deprecated?: boolean;
}

interface CatalogZone {
  id: string;
  aliases: string[];
  country: string | null;
  city: string;
}

let catalog: CatalogZone[] | null = null;

/** Every zone of CLDR's data the runtime can format dates in, by its current IANA name. */
export function zoneCatalog(): CatalogZone[] {
  if (catalog) return catalog;
  const zones = (timezoneData as { keyword: { u: { tz: Record<string, CldrZone | string> } } }).keyword.u.tz;
  const out: CatalogZone[] = [];
  for (const [key, value] of Object.entries(zones)) {
    if (typeof value !== "object" || value._deprecated || !value._alias || key === "unk") continue;
    const aliases = value._alias.split(" ");
    // UTC is the app's default zone and how people write it (IANA's own Etc/UTC stays an alias).
    const id = key === "utc" ? "UTC" : (value._iana ?? aliases[0]);
    if (!isTimeZone(id)) continue;
    // Only UTC of the Etc zones: the fixed-offset ones (Etc/GMT+5 is UTC−05:00) confuse more than help.
    if (key.startsWith("utc") && key !== "utc") continue;
    const country = /^[a-z]{2}[a-z0-9]{3,}$/.test(key) ? key.slice(0, 2).toUpperCase() : null;
    const city = (value._description ?? id).split(", ")[0];
    out.push({ id, aliases: [id, ...aliases.filter((a) => a !== id)], country, city });
  }
  catalog = out;
  return out;
}

/** The zone a saved name (current or older) belongs to. */
export function canonicalZone(name: string): CatalogZone | null {
  return zoneCatalog().find((z) => z.aliases.includes(name)) ?? null;
}

/** The regions of the list, by the first part of the IANA name: a UN M.49 region Intl can name, or a text. */
const AREAS: Record<string, { region: string } | { key: string }> = {
  Africa: { region: "002" },
  America: { region: "019" },
  Antarctica: { region: "AQ" },
  Asia: { region: "142" },
  Atlantic: { key: "profile.timeZone.regions.atlantic" },
  Australia: { region: "AU" },
  Europe: { region: "150" },
  Arctic: { region: "150" },
  Indian: { key: "profile.timeZone.regions.indian" },
  Pacific: { region: "009" },
};
const AREA_ORDER = ["Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"];

/**
 * The picker for a page in `locale` at the instant `at`: a group of the learner's own zone first, then
 * every zone grouped by region, each sorted by offset, then name.
 */
export function zonePicker(locale: string, at: Date, saved: string | null, t: (key: string) => string): ZonePicker {
  const regionNames = new Intl.DisplayNames([locale], { type: "region", fallback: "none" });
  const englishRegions = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
  const choice = (z: CatalogZone): ZoneChoice => {
    const offsetMinutes = zoneOffsetMinutes(z.id, at);
    const country = z.country ? (regionNames.of(z.country) ?? null) : null;
    const generic = new Intl.DateTimeFormat(locale, { timeZone: z.id, timeZoneName: "longGeneric" })
      .formatToParts(at)
      .find((p) => p.type === "timeZoneName")?.value;
    const offset = formatOffset(offsetMinutes);
    const label = country && country !== z.city ? `${z.city}, ${country}` : z.city;
    const words = [
      z.city,
      country,
      z.country ? englishRegions.of(z.country) : null,
      generic,
      offset,
      ...z.aliases,
    ].filter(Boolean);
    return {
      value: saved && z.aliases.includes(saved) ? saved : z.id,
      ids: z.aliases,
      label,
      offset,
      offsetMinutes,
      search: foldSearch(words.join(" ")),
    };
  };
  const byOffset = (a: ZoneChoice, b: ZoneChoice) =>
    a.offsetMinutes - b.offsetMinutes || a.label.localeCompare(b.label, locale);
  const all = zoneCatalog();
  const mine = canonicalZone(saved ?? "UTC") ?? canonicalZone("UTC")!;
  const groups: ZoneGroup[] = [];
  for (const area of AREA_ORDER) {
    const zones = all.filter((z) => z.id.split("/")[0] === area || (area === "Europe" && z.id.startsWith("Arctic/")));
    if (!zones.length) continue;
    const a = AREAS[area];
    const label = "region" in a ? (regionNames.of(a.region) ?? area) : t(a.key);
    groups.push({ key: area, label, zones: zones.map(choice).sort(byOffset) });
  }
  const others = all.filter((z) => !AREA_ORDER.includes(z.id.split("/")[0]) && !z.id.startsWith("Arctic/"));
  if (others.length)
    groups.push({ key: "Other", label: t("profile.timeZone.regions.other"), zones: others.map(choice).sort(byOffset) });
  const current = choice(mine);
  return {
    current: mine.id,
    currentLabel: `${current.label} (${current.offset})`,
    groups: [{ key: "suggested", label: t("profile.timeZone.suggested"), zones: [current] }, ...groups],
  };
}
