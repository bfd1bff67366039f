/**
 * One course card as every list screen shows it (My courses, the catalog, the open catalog), the object
 * `<CourseCard card={…}>` takes whole. The services make it from the API's rows (spec 2.3, 4.11).
 */
export interface CourseCardView {
  id: string;
  name: string;
  /** The course's language: its name and description keep their own direction. */
  language: string | null;
  code: string;
  imageUrl: string | null;
  href: string;
  /** The names of the collections (showcases) it belongs to, shown as tags. */
  collections: string[];
  /** Mandatory or optional, on My courses (spec 3). */
  mandatory?: boolean;
  /** 0..1, on My courses: a progress bar. */
  progress?: number;
  /** The footer's text in the learner's language and time zone (spec 4.11). */
  footer?: string;
  /** The catalogs' short description. */
  description?: string;
  /** The catalog's "Enrolled" badge on the cover. */
  enrolled?: boolean;
}
