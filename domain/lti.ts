/**
 * LTI rules shared by the API and the app (spec 1 "LTI embedding", 3 display modes, 4.12; issue 14):
 * the claim names of 1EdTech LTI Core 1.3 and Assignment and Grade Services 2.0, the claims of a
 * resource-link launch, and what a tool's score does to the learner's activity. Pure: no I/O.
 */
import { DisplayMode } from "./vocabulary";

const LTI = "https://purl.imsglobal.org/spec/lti/claim/";
const AGS = "https://purl.imsglobal.org/spec/lti-ags/";
const NRPS = "https://purl.imsglobal.org/spec/lti-nrps/";

/** Claim URIs of LTI Core 1.3 §5.3–5.4 and the service claims of AGS §3.1 and NRPS §3.6.1. */
export const LTI_CLAIM = {
  messageType: `${LTI}message_type`,
  version: `${LTI}version`,
  deploymentId: `${LTI}deployment_id`,
  targetLinkUri: `${LTI}target_link_uri`,
  resourceLink: `${LTI}resource_link`,
  roles: `${LTI}roles`,
  context: `${LTI}context`,
  launchPresentation: `${LTI}launch_presentation`,
  custom: `${LTI}custom`,
  toolPlatform: `${LTI}tool_platform`,
  ags: `${AGS}claim/endpoint`,
  nrps: `${NRPS}claim/namesroleservice`,
} as const;

/** OAuth 2 scopes of AGS §3.1 and NRPS. */
export const LTI_SCOPE = {
  lineItem: `${AGS}scope/lineitem`,
  lineItemReadOnly: `${AGS}scope/lineitem.readonly`,
  resultReadOnly: `${AGS}scope/result.readonly`,
  score: `${AGS}scope/score`,
  memberships: `${NRPS}scope/contextmembership.readonly`,
} as const;

/** Media types of AGS §3.2–3.4 and NRPS. */
export const LTI_MEDIA_TYPE = {
  lineItem: "application/vnd.ims.lis.v2.lineitem+json",
  lineItems: "application/vnd.ims.lis.v2.lineitemcontainer+json",
  score: "application/vnd.ims.lis.v1.score+json",
  results: "application/vnd.ims.lis.v2.resultcontainer+json",
  memberships: "application/vnd.ims.lti-nrps.v2.membershipcontainer+json",
} as const;

const ROLE_LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner";
const ROLE_INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor";

/** NRPS 2.0 §2.2: a member's context roles — Learner when enrolled, Instructor when an instructor. */
export function membershipRoles(m: { learner: boolean; instructor: boolean }): string[] {
  return [...(m.instructor ? [ROLE_INSTRUCTOR] : []), ...(m.learner ? [ROLE_LEARNER] : [])];
}

/**
 * NRPS 2.0 §2.3.1 `role` filter: a context role by its full URI or its short name (LTI Core §A.2.2).
 * Only Learner and Instructor are held here; any other role is null (no member has it).
 */
export function nrpsRoleFilter(role: string): "Learner" | "Instructor" | null {
  const name = role.startsWith("http://purl.imsglobal.org/vocab/lis/v2/membership#")
    ? role.slice(role.indexOf("#") + 1)
    : role;
  return name === "Learner" || name === "Instructor" ? name : null;
}
const CONTEXT_COURSE = "http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering";

/**
 * Spec 3 display modes → LTI Core §5.4.1 `document_target`: Fullscreen opens a window of its own,
 * the embedded modes an iframe.
 */
export function documentTarget(mode: DisplayMode): "window" | "iframe" {
  return mode === DisplayMode.Fullscreen ? "window" : "iframe";
}

export interface LaunchFacts {
  issuer: string;
  clientId: string;
  deploymentId: string;
  userId: string;
  nonce: string;
  targetLinkUri: string;
  resourceLink: { id: string; title: string };
  context: { id: string; title: string; label: string };
  displayMode: DisplayMode;
  size: { width: number | null; height: number | null };
  /** The course view the tool's "return" goes to. */
  returnUrl: string;
  locale: string;
  custom: Record<string, string>;
  /** AGS endpoints: the course's line items, and the link's own when the tool grades it (supportLtiGrading). */
  lineItems: { lineItems: string; lineItem: string | null };
  membershipsUrl: string;
  platform: { guid: string; name: string };
  /** The person's claims the tool's privacy level lets through (`personalClaims`). */
  person: Record<string, string>;
}

/**
 * What a tool is told about the person (issue 52 item 6): nothing but the opaque user id ("anonymous",
 * the default), the names, the e-mail address, or both ("public") — the operator's choice per tool,
 * as Canvas's privacy levels and Moodle's "share launcher's name / e-mail" are.
 */
export const LTI_PRIVACY = ["anonymous", "name", "email", "public"] as const;
export type LtiPrivacy = (typeof LTI_PRIVACY)[number];

export interface LtiPerson {
  firstName: string;
  middleName?: string | null;
  lastName: string;
  email: string;
}

/**
 * The personal claims a tool at `privacy` receives, by their OpenID Connect names (LTI Core 1.3 §5.3.6,
 * NRPS §2.2): the same for the launch's id_token and the membership service's members.
 */
export function personalClaims(privacy: LtiPrivacy | undefined, p: LtiPerson): Record<string, string> {
  const level = privacy ?? "anonymous";
  const out: Record<string, string> = {};
  if (level === "name" || level === "public") {
    out.name = [p.firstName, p.middleName, p.lastName].filter(Boolean).join(" ");
    out.given_name = p.firstName;
    if (p.middleName) out.middle_name = p.middleName;
    out.family_name = p.lastName;
  }
  if (level === "email" || level === "public") out.email = p.email;
  return out;
}

/** The same for an LTI 1.1 launch (LTI 1.1 §4.3 lis_person_* parameters). */
export function personalParameters(privacy: LtiPrivacy | undefined, p: LtiPerson): Record<string, string> {
  const c = personalClaims(privacy, p);
  const out: Record<string, string> = {};
  if (c.name !== undefined) {
    out.lis_person_name_full = c.name;
    out.lis_person_name_given = c.given_name!;
    out.lis_person_name_family = c.family_name!;
  }
  if (c.email !== undefined) out.lis_person_contact_email_primary = c.email;
  return out;
}

/** The claims of an LtiResourceLinkRequest id_token (LTI Core 1.3 §5.3, AGS §3.1, NRPS §3.6.1). */
export function launchClaims(f: LaunchFacts): Record<string, unknown> {
  const presentation: Record<string, unknown> = {
    document_target: documentTarget(f.displayMode),
    return_url: f.returnUrl,
    locale: f.locale,
  };
  if (f.displayMode === DisplayMode.EmbeddedCustom) {
    if (f.size.width) presentation.width = f.size.width;
    if (f.size.height) presentation.height = f.size.height;
  }
  return {
    iss: f.issuer,
    aud: f.clientId,
    azp: f.clientId,
    sub: f.userId,
    ...f.person,
    nonce: f.nonce,
    locale: f.locale,
    [LTI_CLAIM.messageType]: "LtiResourceLinkRequest",
    [LTI_CLAIM.version]: "1.3.0",
    [LTI_CLAIM.deploymentId]: f.deploymentId,
    [LTI_CLAIM.targetLinkUri]: f.targetLinkUri,
    [LTI_CLAIM.resourceLink]: f.resourceLink,
    [LTI_CLAIM.roles]: [ROLE_LEARNER],
    [LTI_CLAIM.context]: { ...f.context, type: [CONTEXT_COURSE] },
    [LTI_CLAIM.launchPresentation]: presentation,
    [LTI_CLAIM.custom]: f.custom,
    [LTI_CLAIM.toolPlatform]: { guid: f.platform.guid, name: f.platform.name, product_family_code: "learner-app" },
    // AGS §3.1: every scope the platform serves (line items read and written, results, scores); the
    // resource link's own line item when the activity is graded by the tool.
    [LTI_CLAIM.ags]: {
      scope: [LTI_SCOPE.lineItem, LTI_SCOPE.lineItemReadOnly, LTI_SCOPE.resultReadOnly, LTI_SCOPE.score],
      lineitems: f.lineItems.lineItems,
      ...(f.lineItems.lineItem ? { lineitem: f.lineItems.lineItem } : {}),
    },
    [LTI_CLAIM.nrps]: { context_memberships_url: f.membershipsUrl, service_versions: ["2.0"] },
  };
}

/** AGS §3.4.7–3.4.8 progress values. */
export const ACTIVITY_PROGRESS = ["Initialized", "Started", "InProgress", "Submitted", "Completed"] as const;
export const GRADING_PROGRESS = ["FullyGraded", "Pending", "PendingManual", "Failed", "NotReady"] as const;

export interface ScoreOutcome {
  /** Points on the activity's own scale, or null when the score carries none (or is not final). */
  score: number | null;
  /** The tool says the learner is done: the activity is finished. */
  finishes: boolean;
}

/**
 * What a tool's Score does (AGS §3.4; issue 14 item 4): a score is kept only when grading is
 * FullyGraded, scaled from the tool's maximum to the activity's (clamped to 0…max); the activity
 * finishes when the tool says Completed or FullyGraded.
 */
export function scoreOutcome(
  s: {
    scoreGiven?: number | null;
    scoreMaximum?: number | null;
    activityProgress: (typeof ACTIVITY_PROGRESS)[number];
    gradingProgress: (typeof GRADING_PROGRESS)[number];
  },
  activityMaxScore: number | null,
): ScoreOutcome {
  const graded = s.gradingProgress === "FullyGraded";
  const finishes = s.activityProgress === "Completed" || graded;
  let score: number | null = null;
  if (graded && s.scoreGiven != null && s.scoreMaximum && activityMaxScore != null) {
    const ratio = Math.min(Math.max(s.scoreGiven / s.scoreMaximum, 0), 1);
    score = Math.round(ratio * activityMaxScore * 100) / 100;
  }
  return { score, finishes };
}

/**
 * Issue 14 item 6: the only navigation the bridge performs — a path on the app's own origin.
 * Returns the path, or null for anything that would leave the origin (scheme, `//host`, backslashes).
 */
export function sameOriginPath(target: string): string | null {
  if (!target.startsWith("/") || target.startsWith("//") || target.includes("\\")) return null;
  if (/[\u0000-\u001f]/.test(target)) return null;
  return target;
}

/**
 * The `sandbox` tokens the HTML standard defines for an iframe (issue 14 item 5): a tool's registry
 * entry may only use these.
 */
const SANDBOX_TOKENS = new Set([
  "allow-downloads",
  "allow-forms",
  "allow-modals",
  "allow-orientation-lock",
  "allow-pointer-lock",
  "allow-popups",
  "allow-popups-to-escape-sandbox",
  "allow-presentation",
  "allow-same-origin",
  "allow-scripts",
  "allow-storage-access-by-user-activation",
  "allow-top-navigation",
  "allow-top-navigation-by-user-activation",
  "allow-top-navigation-to-custom-protocols",
]);

/** A Permissions Policy directive of an iframe's `allow`: a feature name, then origins or keywords. */
const ALLOW_DIRECTIVE = /^[a-z][a-z0-9-]*(\s+('self'|'src'|'none'|\*|https?:\/\/[^\s;'"]+))*$/;

/** What is wrong with a tool's `sandbox` and `allow` values, one line each (none: they may be used). */
export function framePolicyProblems(policy: { allow?: string; sandbox?: string }): string[] {
  const out: string[] = [];
  for (const token of (policy.sandbox ?? "").split(/\s+/).filter(Boolean))
    if (!SANDBOX_TOKENS.has(token)) out.push(`sandbox: "${token}" is not an iframe sandbox token`);
  for (const directive of (policy.allow ?? "")
    .split(";")
    .map((d) => d.trim())
    .filter(Boolean))
    if (!ALLOW_DIRECTIVE.test(directive)) out.push(`allow: "${directive}" is not a Permissions Policy directive`);
  return out;
}

/** The frame of a tool without its own policy: full screen and the clipboard, no sandbox. */
export const DEFAULT_FRAME_POLICY = { allow: "fullscreen; clipboard-write", sandbox: null } as const;

/**
 * The iframe attributes of a tool (issue 14 item 5): its registered `allow` and `sandbox`, or the
 * defaults. A sandbox always keeps the scripts and forms an LTI launch needs (the launch is a form
 * post into the frame, the tool a page of scripts).
 */
export function framePolicy(tool: { allow?: string; sandbox?: string } | null): {
  allow: string;
  sandbox: string | null;
} {
  if (!tool) return { ...DEFAULT_FRAME_POLICY };
  const sandbox =
    tool.sandbox === undefined
      ? null
      : [...new Set(["allow-scripts", "allow-forms", ...tool.sandbox.split(/\s+/).filter(Boolean)])].join(" ");
  return { allow: tool.allow ?? DEFAULT_FRAME_POLICY.allow, sandbox };
}

/**
 * Spec 3 EmbeddedCustom: the frame at the activity's preferred size, never wider than its column
 * (then scaled down keeping the aspect). Null when the activity gives no size (the frame then grows
 * with the tool's `lti.frameResize`, as EmbeddedAuto).
 */
export function customFrameSize(preferred: { width: number | null; height: number | null }) {
  const ok = (n: number | null): n is number => n !== null && Number.isInteger(n) && n >= 100 && n <= 4000;
  if (!ok(preferred.width) || !ok(preferred.height)) return null;
  return { width: preferred.width, height: preferred.height };
}

/**
 * The CSP `form-action` of a page between the learner and a tool (issue 32 item 1): each URL as a
 * source expression — scheme, host, port and path, never the query — so the page's form goes to
 * exactly that address. A browser checks `form-action` on every redirect after a form submission too;
 * there the path is not compared (CSP 3 §6.7.2.10), so a redirect stays within the listed origins.
 * Anything that is not an http(s) URL is left out; with nothing left the answer is `'none'`.
 */
export function formActionSources(urls: readonly string[]): string {
  const sources = new Set<string>();
  for (const raw of urls) {
    const url = URL.parse(raw);
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password) continue;
    // `;` and `,` end a directive or a policy: kept percent-encoded in the path.
    sources.add(`${url.origin}${url.pathname.replace(/;/g, "%3B").replace(/,/g, "%2C")}`);
  }
  return sources.size > 0 ? [...sources].join(" ") : "'none'";
}

/**
 * An activity's custom parameters (`npm run lti:tool -- attach … --custom k=v`, LTI Core §5.4.5) with
 * the substitution variables of LTI Core Appendix C this platform knows replaced; any other value —
 * an unknown `$…` variable included — is sent as written, as the appendix asks.
 */
export function customParameters(
  custom: unknown,
  facts: {
    userId: string;
    context: { id: string; title: string; label: string };
    resourceLink: { id: string; title: string };
  },
): Record<string, string> {
  if (!custom || typeof custom !== "object") return {};
  const known: Record<string, string> = {
    "$User.id": facts.userId,
    "$Context.id": facts.context.id,
    "$Context.title": facts.context.title,
    "$Context.label": facts.context.label,
    "$CourseSection.sourcedId": facts.context.id,
    "$ResourceLink.id": facts.resourceLink.id,
    "$ResourceLink.title": facts.resourceLink.title,
  };
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(custom as Record<string, unknown>))
    if (typeof value === "string") out[name] = Object.hasOwn(known, value) ? known[value]! : value;
  return out;
}
