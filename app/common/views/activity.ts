import type { LtiLaunchProps } from "./lti";
import type { ScormBody } from "./scorm";

/** What the loader prepares for one activity (already sanitised, dates already formatted). */
export type ActivityBody =
  | { kind: "text"; html: string }
  | {
      kind: "pdf";
      url: string;
      fileName: string;
      size: string | null;
      page: number | null;
      resumeTarget: string | null;
    }
  | { kind: "images"; images: { src: string; alt: string }[] }
  | { kind: "file"; url: string; fileName: string; size: string | null }
  | { kind: "video"; src: string; title: string; duration: number | null }
  | {
      kind: "event";
      when: string;
      until: string | null;
      timezone: string;
      location: string | null;
      url: string | null;
      status: "upcoming" | "ongoing" | "past";
      description: string | null;
    }
  | { kind: "lti"; toolUrl: string | null; launch: LtiLaunchProps | null }
  | ScormBody
  | {
      kind: "assessment";
      survey: boolean;
      /** The test's own page, once the activity is started. */
      href: string | null;
      state: "notStarted" | "inProgress" | "inGrading" | "done";
      score: { score: number; max: number } | null;
      passed: boolean | null;
      reviewAllowed: boolean;
    }
  | { kind: "module"; count: number }
  | { kind: "none" };
