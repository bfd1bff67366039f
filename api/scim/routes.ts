/**
 * SCIM 2.0 (RFC 7643/7644, decision 059): `/api/scim/v2`, which the web server also answers at `/scim/v2` —
 * the base URL an identity provider (Entra ID, Okta, Keycloak) is given with a token of
 * `npm run ops -- scim token create`. Every answer is application/scim+json; every refusal a SCIM error
 * document. The token's tenant is the only tenant a request sees.
 */
import { Hono, type Context } from "hono";
import { scimPatch, ScimError as PatchError, type ScimPatchOperation } from "scim-patch";
import { z } from "zod";
import type { ApiEnv } from "../context";
import { operations } from "../openapi";
import { MAX_RESULTS, resourceTypes, schemas, serviceProviderConfig } from "./discovery";
import { renderScimError, SCIM_JSON, ScimError, scimJson } from "./errors";
import { filterSql } from "./filter";
import {
  createGroup,
  deleteGroup,
  getGroup,
  GROUP_FILTER,
  groupInput,
  listGroups,
  replaceGroup,
  type GroupResource,
} from "./groups";
import { scimTokenTenant } from "./tokens";
import {
  createUser,
  deleteUser,
  getUser,
  listUsers,
  replaceUser,
  USER_FILTER,
  userInput,
  type UserResource,
} from "./users";

const op = operations("scim");
const LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
const PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

/** The tenant of the request's token, set by the routes' first middleware. */
const tenants = new WeakMap<Context, string>();
const tenantOf = (c: Context) => tenants.get(c)!;

const base = (c: Context<ApiEnv>) => `${(c.var.deps.appUrl ?? new URL(c.req.url).origin).replace(/\/$/, "")}/scim/v2`;

async function body<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/(scim\+)?json\b/i.test(type))
    throw new ScimError(415, "Send the resource as application/scim+json.", "invalidSyntax");
  const raw: unknown = await c.req.json().catch(() => {
    throw new ScimError(400, "The body is not JSON.", "invalidSyntax");
  });
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map(String).join(".");
    throw new ScimError(400, `${field ? `${field}: ` : ""}${issue.message}`, "invalidValue");
  }
  return parsed.data;
}

const patchBody = z.object({
  schemas: z.array(z.string()).refine((s) => s.includes(PATCH_SCHEMA), `schemas must include ${PATCH_SCHEMA}`),
  Operations: z
    .array(
      z.looseObject({
        op: z
          .string()
          .regex(/^(add|replace|remove)$/i, "op is add, replace or remove")
          .transform((o) => o.toLowerCase() as "add" | "replace" | "remove"),
        path: z.string().max(1000).optional(),
        value: z.unknown().optional(),
      }),
    )
    .min(1)
    .max(1000),
});

/** A PATCH applied to the resource as it is (scim-patch); what it made is then written as a PUT would be. */
function patched<T extends UserResource | GroupResource>(
  resource: T,
  ops: z.output<typeof patchBody>["Operations"],
): T {
  try {
    const now = new Date();
    const doc = { ...resource, meta: { ...resource.meta, created: now, lastModified: now } };
    const { meta: _meta, ...result } = scimPatch(doc, ops as ScimPatchOperation[], { mutateDocument: false });
    return result as unknown as T;
  } catch (err) {
    if (err instanceof PatchError) {
      const scimType = (err.scimCode ?? "invalidValue") as ConstructorParameters<typeof ScimError>[2];
      throw new ScimError(400, err.message, scimType);
    }
    throw err;
  }
}

/** startIndex (1-based) and count of RFC 7644 §3.4.2.4; a count over the maximum is the maximum. */
function paging(c: Context) {
  const int = (name: string, fallback: number, min: number) => {
    const raw = c.req.query(name);
    if (raw === undefined || raw === "") return fallback;
    if (!/^-?\d{1,9}$/.test(raw)) throw new ScimError(400, `${name} is a whole number`, "invalidValue");
    return Math.max(min, Number(raw));
  };
  return { startIndex: int("startIndex", 1, 1), count: Math.min(MAX_RESULTS, int("count", 100, 0)) };
}

const listResponse = (total: number, startIndex: number, resources: unknown[]) => ({
  schemas: [LIST_SCHEMA],
  totalResults: total,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});

const excludesMembers = (c: Context) =>
  (c.req.query("excludedAttributes") ?? "").split(",").some((a) => a.trim().toLowerCase() === "members");

const id = (c: Context) => c.req.param("id")!;

export function scimRoutes() {
  const r = new Hono<ApiEnv>();
  r.onError((err, c) => renderScimError(c, err));
  r.use("*", async (c, next) => {
    const match = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "");
    const found = match ? await scimTokenTenant(c.var.db, match[1]!) : null;
    if (!found) {
      c.header("WWW-Authenticate", 'Bearer realm="scim"');
      throw new ScimError(401, "A valid SCIM bearer token is required.");
    }
    tenants.set(c, found.tenantId);
    await next();
  });
  const described = (summary: string, extra: { description?: string; errors?: Record<number, string> } = {}) =>
    op({
      summary,
      auth: "scimToken",
      answer: { type: SCIM_JSON, description: "A SCIM resource or list (RFC 7643/7644)" },
      errors: { 409: "uniqueness (SCIM error document)", ...extra.errors },
      description: extra.description,
      notShown: true,
    });

  r.get("/ServiceProviderConfig", described("SCIM: what this service provider supports"), (c) =>
    scimJson(c, serviceProviderConfig(base(c))),
  );
  r.get("/ResourceTypes", described("SCIM: the resource types (User, Group)"), (c) => {
    const all = resourceTypes(base(c));
    return scimJson(c, listResponse(all.length, 1, all));
  });
  r.get("/ResourceTypes/:id", described("SCIM: one resource type"), (c) => {
    const found = resourceTypes(base(c)).find((t) => t.id === id(c));
    if (!found) throw new ScimError(404, `ResourceType ${id(c)} not found`);
    return scimJson(c, found);
  });
  r.get("/Schemas", described("SCIM: the schemas of User and Group"), (c) => {
    const all = schemas(base(c));
    return scimJson(c, listResponse(all.length, 1, all));
  });
  r.get("/Schemas/:id", described("SCIM: one schema"), (c) => {
    const found = schemas(base(c)).find((s) => s.id === id(c));
    if (!found) throw new ScimError(404, `Schema ${id(c)} not found`);
    return scimJson(c, found);
  });

  r.get(
    "/Users",
    described("SCIM: the tenant's people, filtered and paged", {
      description:
        'filter: userName, externalId, emails.value, emails[type eq "work"], name.givenName, name.familyName, displayName, active, id (eq, ne, co, sw, ew, gt, ge, lt, le, pr, and, or, not); startIndex, count (at most 200).',
    }),
    async (c) => {
      const where = filterSql(c.req.query("filter"), USER_FILTER);
      const page = paging(c);
      const { total, resources } = await listUsers(c.var.db, tenantOf(c), { where, ...page }, base(c));
      return scimJson(c, listResponse(total, page.startIndex, resources));
    },
  );
  r.post("/Users", described("SCIM: provision a person (a learner with the LMS licence)"), async (c) => {
    const created = await createUser(c.var.db, tenantOf(c), await body(c, userInput), base(c));
    // eslint-disable-next-line local/redirect-targets -- not a redirect: RFC 7644 §3.3's Location, APP_URL and the new row's id.
    c.header("Location", created.meta.location);
    return scimJson(c, created, 201);
  });
  r.get("/Users/:id", described("SCIM: one person"), async (c) =>
    scimJson(c, await getUser(c.var.db, tenantOf(c), id(c), base(c))),
  );
  r.put("/Users/:id", described("SCIM: replace a person's attributes"), async (c) =>
    scimJson(c, await replaceUser(c.var.db, tenantOf(c), id(c), await body(c, userInput), base(c))),
  );
  r.patch(
    "/Users/:id",
    described("SCIM: change a person (active: false ends her sessions and hides her; nothing is deleted)"),
    async (c) => {
      const { Operations } = await body(c, patchBody);
      const now = await getUser(c.var.db, tenantOf(c), id(c), base(c));
      const next = userInput.safeParse(patched(now, Operations));
      if (!next.success) throw new ScimError(400, next.error.issues[0]!.message, "invalidValue");
      return scimJson(c, await replaceUser(c.var.db, tenantOf(c), id(c), next.data, base(c)));
    },
  );
  r.delete("/Users/:id", described("SCIM: delete a person and her records"), async (c) => {
    await deleteUser(c.var.db, tenantOf(c), id(c));
    return c.body(null, 204);
  });

  r.get(
    "/Groups",
    described("SCIM: the tenant's units, filtered and paged", {
      description: 'filter: displayName, id, members[value eq "…"]; excludedAttributes=members; startIndex, count.',
    }),
    async (c) => {
      const where = filterSql(c.req.query("filter"), GROUP_FILTER);
      const page = paging(c);
      const result = await listGroups(
        c.var.db,
        tenantOf(c),
        { where, ...page, withMembers: !excludesMembers(c) },
        base(c),
      );
      return scimJson(c, listResponse(result.total, page.startIndex, result.resources));
    },
  );
  r.post("/Groups", described("SCIM: make a unit, with its members"), async (c) => {
    const created = await createGroup(c.var.db, tenantOf(c), await body(c, groupInput), base(c));
    // eslint-disable-next-line local/redirect-targets -- not a redirect: RFC 7644 §3.3's Location, APP_URL and the new row's id.
    c.header("Location", created.meta.location);
    return scimJson(c, created, 201);
  });
  r.get("/Groups/:id", described("SCIM: one unit and its members"), async (c) =>
    scimJson(c, await getGroup(c.var.db, tenantOf(c), id(c), !excludesMembers(c), base(c))),
  );
  r.put("/Groups/:id", described("SCIM: replace a unit's name and members"), async (c) =>
    scimJson(c, await replaceGroup(c.var.db, tenantOf(c), id(c), await body(c, groupInput), base(c))),
  );
  r.patch("/Groups/:id", described("SCIM: rename a unit, add or remove members"), async (c) => {
    const { Operations } = await body(c, patchBody);
    const now = await getGroup(c.var.db, tenantOf(c), id(c), true, base(c));
    const next = groupInput.safeParse(patched(now, Operations));
    if (!next.success) throw new ScimError(400, next.error.issues[0]!.message, "invalidValue");
    const result = await replaceGroup(c.var.db, tenantOf(c), id(c), next.data, base(c));
    return excludesMembers(c) ? c.body(null, 204) : scimJson(c, result);
  });
  r.delete("/Groups/:id", described("SCIM: delete a unit (its people stay)"), async (c) => {
    await deleteGroup(c.var.db, tenantOf(c), id(c));
    return c.body(null, 204);
  });
  r.all("*", () => {
    throw new ScimError(404, "No such SCIM endpoint.");
  });
  return r;
}
