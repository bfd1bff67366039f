/**
 * The time-zone picker as the profile's loader hands it to the page (issue 25 item 4;
 * `time-zones.server.ts` makes it): IANA's current names, grouped by region, each with what it can be
 * found by.
 */
export interface ZoneChoice {
  /** What the form sends: the zone's current IANA name, or the learner's saved older name of it. */
  value: string;
  /** Every name the zone has had (the current one first): the browser may report an older one. */
  ids: string[];
  /** "Kyiv, Ukraine" — the city as IANA names it, the country in the page's language. */
  label: string;
  /** "UTC+02:00" now. */
  offset: string;
  offsetMinutes: number;
  /** Lower-case words it is found by: city, country (in the page's language and English), zone name, ids. */
  search: string;
}

export interface ZoneGroup {
  key: string;
  label: string;
  zones: ZoneChoice[];
}

export interface ZonePicker {
  /** The learner's zone, as its current IANA name (their saved value may be an older alias). */
  current: string;
  /** The label of the learner's zone. */
  currentLabel: string;
  groups: ZoneGroup[];
}
