/** The SCIM discovery endpoints (RFC 7644 §4): what this service provider supports, its resource types and schemas. */
import { GROUP_SCHEMA } from "./groups";
import { USER_SCHEMA } from "./users";

export const MAX_RESULTS = 200;

export const serviceProviderConfig = (base: string) => ({
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: MAX_RESULTS },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: "oauthbearertoken",
      name: "Bearer token",
      description: "A token made by the operator: npm run ops -- scim token create --label <client>",
      primary: true,
    },
  ],
  meta: { resourceType: "ServiceProviderConfig", location: `${base}/ServiceProviderConfig` },
});

export const resourceTypes = (base: string) => [
  {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
    id: "User",
    name: "User",
    endpoint: "/Users",
    description: "A person of the tenant (a learner unless given other roles elsewhere)",
    schema: USER_SCHEMA,
    meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/User` },
  },
  {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
    id: "Group",
    name: "Group",
    endpoint: "/Groups",
    description: "A unit of the tenant",
    schema: GROUP_SCHEMA,
    meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/Group` },
  },
];

type Attribute = {
  name: string;
  type: "string" | "boolean" | "complex" | "reference";
  multiValued?: boolean;
  required?: boolean;
  mutability?: "readOnly" | "readWrite" | "immutable";
  uniqueness?: "none" | "server";
  caseExact?: boolean;
  subAttributes?: Attribute[];
  description: string;
};

const attribute = (a: Attribute): Record<string, unknown> => ({
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...a,
  ...(a.subAttributes ? { subAttributes: a.subAttributes.map(attribute) } : {}),
});

const USER_ATTRIBUTES: Attribute[] = [
  {
    name: "userName",
    type: "string",
    required: true,
    uniqueness: "server",
    description: "The person's e-mail address",
  },
  { name: "externalId", type: "string", caseExact: true, description: "The provider's id of the person" },
  {
    name: "name",
    type: "complex",
    description: "The person's names",
    subAttributes: [
      { name: "givenName", type: "string", description: "First name" },
      { name: "middleName", type: "string", description: "Middle name" },
      { name: "familyName", type: "string", description: "Last name" },
      { name: "formatted", type: "string", mutability: "readOnly", description: "The full name" },
    ],
  },
  { name: "displayName", type: "string", description: "First and last name (used for names that are not given)" },
  {
    name: "emails",
    type: "complex",
    multiValued: true,
    description: "The work address (the account has one: userName)",
    subAttributes: [
      { name: "value", type: "string", description: "The address" },
      { name: "type", type: "string", description: "work" },
      { name: "primary", type: "boolean", description: "The address used when userName is not one" },
    ],
  },
  { name: "active", type: "boolean", description: "false: cannot sign in, in no roster; nothing is deleted" },
  { name: "locale", type: "string", description: "The person's language, when it is one of the app's" },
  { name: "timezone", type: "string", description: "IANA time zone" },
  {
    name: "groups",
    type: "complex",
    multiValued: true,
    mutability: "readOnly",
    description: "The units the person is in (change them through Groups)",
    subAttributes: [
      { name: "value", type: "string", mutability: "readOnly", description: "The unit's id" },
      { name: "display", type: "string", mutability: "readOnly", description: "The unit's name" },
    ],
  },
];

const GROUP_ATTRIBUTES: Attribute[] = [
  { name: "displayName", type: "string", required: true, uniqueness: "server", description: "The unit's name" },
  {
    name: "members",
    type: "complex",
    multiValued: true,
    description: "The people in the unit",
    subAttributes: [
      { name: "value", type: "string", mutability: "immutable", description: "The user's id" },
      { name: "display", type: "string", mutability: "readOnly", description: "The user's name" },
    ],
  },
];

export const schemas = (base: string) => [
  {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
    id: USER_SCHEMA,
    name: "User",
    description: "A person",
    attributes: USER_ATTRIBUTES.map(attribute),
    meta: { resourceType: "Schema", location: `${base}/Schemas/${USER_SCHEMA}` },
  },
  {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
    id: GROUP_SCHEMA,
    name: "Group",
    description: "A unit",
    attributes: GROUP_ATTRIBUTES.map(attribute),
    meta: { resourceType: "Schema", location: `${base}/Schemas/${GROUP_SCHEMA}` },
  },
];
