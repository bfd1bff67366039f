import { z } from "zod";
import { ANALYTICS_EVENTS } from "../analytics";

/** One event: a spec 7.1 name, small properties (numbers, short texts, lists), the page path, the session. */
const analyticsEventSchema = z.object({
  name: z.enum(ANALYTICS_EVENTS),
  page: z.string().max(2000).nullish(),
  session: z.string().max(64).nullish(),
  /** The data-lake session (spec 9, `lms.datalake.sessionDuration`), kept beside the analytics one. */
  datalakeSession: z.string().max(64).nullish(),
  props: z
    .record(
      z.string().max(40),
      z.union([z.number(), z.boolean(), z.string().max(8000), z.array(z.string().max(100)).max(20), z.null()]),
    )
    .default({}),
});

/** POST /api/analytics/v1/events: a batch (the browser sends a few at a time with sendBeacon). */
export const analyticsBatchSchema = z.object({ events: z.array(analyticsEventSchema).min(1).max(50) });
export type AnalyticsBatch = z.input<typeof analyticsBatchSchema>;

/** The collector's answer: how many events it stored. */
export const analyticsAcceptedSchema = z.object({
  accepted: z.number().int(),
  /** A visitor's events that are not page views, or past their bounds, are dropped (issue 29 item 3). */
  dropped: z.number().int(),
});
