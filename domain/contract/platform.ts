import { z } from "zod";
import { ROLES } from "../vocabulary";

const unitSchema = z.object({ id: z.string(), name: z.string(), is_primary: z.boolean() });

/** Spec 3 'User'. */
export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  first_name: z.string(),
  middle_name: z.string().nullable(),
  last_name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  roles: z.array(z.enum(ROLES)),
  tenant: z.string(),
  tenant_id: z.string(),
  department: z.string().nullable(),
  external_id: z.string().nullable(),
  timezone: z.string().nullable(),
  units: z.array(unitSchema),
});
export type User = z.infer<typeof userSchema>;

/**
 * Spec 2.9: a member of the learner's mini-group, as the profile's table shows them.
 * @public (the contract's shape, for an external API's implementers)
 */
export const miniGroupMemberSchema = z.object({
  id: z.string(),
  first_name: z.string(),
  middle_name: z.string().nullable(),
  last_name: z.string(),
  email: z.string(),
  primary_unit: z.string().nullable(),
});
export type MiniGroupMember = z.infer<typeof miniGroupMemberSchema>;
export type Unit = z.infer<typeof unitSchema>;

const permissionEntrySchema = z.object({ permission: z.string(), scope_id: z.string().nullable() });
export const permissionsSchema = z.object({ data: z.array(permissionEntrySchema) });

const licenceSchema = z.object({ product: z.string(), validUntil: z.string().nullable() });
export const licencesSchema = z.object({ data: z.array(licenceSchema) });

const featuresSchema = z.object({
  catalog: z.boolean(),
  rooms: z.boolean(),
  calendar: z.boolean(),
  researchProjects: z.boolean(),
  knowledgeModels: z.boolean(),
  dashboard: z.boolean(),
  compositeRetake: z.boolean(),
});

/** Spec 3 'Settings read'. */
export const settingsSchema = z.object({
  "platform.common.supported_locales": z.string(),
  "platform.common.locale": z.string(),
  "platform.common.portal_name": z.string(),
  "platform.common.portal_url": z.string().nullable(),
  "platform.common.cloud_redirect": z.boolean(),
  "platform.ui.feedback": z.object({ "learner.visible": z.boolean() }),
  "learner.tutor": z.object({
    enabled: z.boolean(),
    defaultKnowledgeModelId: z.string().nullable(),
    widgetSettings: z.array(z.object({ objectiveId: z.string(), initialExpanded: z.boolean() })),
  }),
  "lms.datalake.sessionDuration": z.number(),
  features: featuresSchema,
});
export type Settings = z.infer<typeof settingsSchema>;

/** What anyone may read without signing in (config.json, the sign-in page). */
export const publicSettingsSchema = z.object({
  portalName: z.string(),
  supportedLocales: z.string(),
  defaultLocale: z.string(),
  features: featuresSchema.pick({ catalog: true }),
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

const TIMEZONE_MAX = 64;
const timezoneBodySchema = z.object({ timezone: z.string().min(1).max(TIMEZONE_MAX) });

/** `users/{id}/…`: a user id, or "me" (only oneself: another id is 404). */
export const userPathSchema = z.object({ id: z.union([z.literal("me"), z.uuid()]) });
/** The time zone command's body: the time zone, and the command's id (one is made when it is left out). */
export const timezoneCommandSchema = timezoneBodySchema.extend({ commandId: z.uuid().optional() });
export const unitsSchema = z.object({ items: z.array(unitSchema) });
export const miniGroupMembersSchema = z.object({ items: z.array(miniGroupMemberSchema) });
