/**
 * Settings a tenant has until it sets its own (spec 3 'Settings read'): what `readSettings` falls back
 * to, and the rows a new tenant is given. Kept apart from the seed so the API never imports it.
 */
import { SUPPORTED_LOCALES } from "../domain/locales";
import { DEFAULT_FEATURES } from "../domain/menu";

export const DEFAULT_SETTINGS: Record<string, unknown> = {
  "platform.common.supported_locales": SUPPORTED_LOCALES.join(","),
  "platform.common.locale": "en-US",
  "platform.common.portal_name": "Learning Portal",
  "platform.common.portal_url": null,
  "platform.common.cloud_redirect": false,
  "platform.ui.feedback": { "learner.visible": true },
  "learner.tutor": { enabled: true, defaultKnowledgeModelId: null, widgetSettings: [] },
  "lms.datalake.sessionDuration": 30,
};

/** The feature switches a new tenant gets: the domain's defaults, one row each. */
export const DEFAULT_FEATURE_ROWS: Record<string, boolean> = { ...DEFAULT_FEATURES };
