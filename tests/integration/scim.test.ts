import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../api/db/schema";
import { runScimTokenCommand } from "../../api/scim/tokens";
import { createTestApi, type TestApi } from "../fixtures/api";

/**
 * Decision 059: the sequence a SCIM client (Entra ID, Okta) runs against /api/scim/v2 on PGlite — create,
 * find by userName, deactivate (her token stops working), rename, replace, a group (unit) with a member,
 * delete — and the refusals as SCIM error documents.
 */
let t: TestApi;
let token: string;
const SCIM = "/api/scim/v2";

beforeAll(async () => {
  t = await createTestApi();
  ({ token } = (await runScimTokenCommand(t.database.db, { command: "create", label: "Entra ID" })) as {
    token: string;
  });
});
afterAll(() => t.close());

const scim = (method: string, path: string, body?: unknown, bearer: string | null = token) =>
  t.request(method, `${SCIM}${path}`, {
    token: bearer,
    body,
    headers: body === undefined ? {} : { "Content-Type": "application/scim+json" },
  });
const json = async (res: Response) => (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const patchOp = (...Operations: unknown[]) => ({
  schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
  Operations,
});

describe("SCIM 2.0 provisioning", () => {
  let userId = "";

  it("refuses a missing or wrong token with 401 and a SCIM error document", async () => {
    for (const bearer of [null, "scim_00000000-0000-0000-0000-000000000000_" + "x".repeat(43), token + "x"]) {
      const res = await scim("GET", "/Users", undefined, bearer);
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toContain("application/scim+json");
      expect(await json(res)).toMatchObject({
        schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"],
        status: "401",
      });
    }
  });

  it("describes itself", async () => {
    expect(await json(await scim("GET", "/ServiceProviderConfig"))).toMatchObject({
      patch: { supported: true },
      filter: { supported: true },
    });
    expect((await json(await scim("GET", "/ResourceTypes"))).Resources.map((r: { id: string }) => r.id)).toEqual([
      "User",
      "Group",
    ]);
    expect((await json(await scim("GET", "/Schemas"))).totalResults).toBe(2);
  });

  it("creates a person, refuses her twice, and finds her by userName, externalId and e-mail", async () => {
    const res = await scim("POST", "/Users", {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName: "Grace.Hopper@Navy.example",
      externalId: "entra-42",
      name: { givenName: "Grace", familyName: "Hopper" },
      emails: [{ value: "grace.hopper@navy.example", type: "work", primary: true }],
      active: true,
    });
    expect(res.status).toBe(201);
    const created = await json(res);
    userId = created.id;
    expect(res.headers.get("location")).toBe(created.meta.location);
    expect(created).toMatchObject({ userName: "grace.hopper@navy.example", externalId: "entra-42", active: true });

    const again = await scim("POST", "/Users", { userName: "grace.hopper@navy.example" });
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ scimType: "uniqueness" });

    for (const filter of [
      'userName eq "GRACE.HOPPER@navy.example"',
      'externalId eq "entra-42"',
      'emails.value eq "grace.hopper@navy.example"',
      'emails[type eq "work" and value eq "grace.hopper@navy.example"]',
    ]) {
      const list = await json(await scim("GET", `/Users?filter=${encodeURIComponent(filter)}`));
      expect(list, filter).toMatchObject({ totalResults: 1, Resources: [{ id: userId }] });
    }
    const none = await json(await scim("GET", `/Users?filter=${encodeURIComponent('userName eq "nobody@x.example"')}`));
    expect(none).toMatchObject({ totalResults: 0, Resources: [] });
  });

  it("pages with startIndex and count", async () => {
    const first = await json(await scim("GET", "/Users?startIndex=1&count=2"));
    const second = await json(await scim("GET", "/Users?startIndex=3&count=2"));
    expect(first.itemsPerPage).toBe(2);
    expect(first.totalResults).toBeGreaterThan(3);
    expect(second.startIndex).toBe(3);
    expect(second.Resources[0].id).not.toBe(first.Resources[1].id);
  });

  it("active false (as Entra sends it) ends her sessions and keeps her account", async () => {
    const bearer = await t.token(userId);
    expect((await t.request("GET", "/api/platform/v1/users/me", { token: bearer })).status).toBe(200);
    const res = await scim("PATCH", `/Users/${userId}`, patchOp({ op: "Replace", path: "active", value: "False" }));
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ active: false });
    expect((await t.request("GET", "/api/platform/v1/users/me", { token: bearer })).status).toBe(401);
    expect((await t.request("GET", "/api/platform/v1/users/me", { token: await t.token(userId) })).status).toBe(401);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, userId));
    expect(row!.deactivatedAt).not.toBeNull();
    const inactive = await json(await scim("GET", `/Users?filter=${encodeURIComponent("active eq false")}`));
    expect(inactive.Resources.map((r: { id: string }) => r.id)).toContain(userId);
  });

  it("PATCH replaces her name; PUT replaces her and reactivates her", async () => {
    const renamed = await json(
      await scim(
        "PATCH",
        `/Users/${userId}`,
        patchOp({ op: "replace", path: "name.familyName", value: "Murray Hopper" }),
      ),
    );
    expect(renamed.name).toMatchObject({ givenName: "Grace", familyName: "Murray Hopper" });
    expect(renamed.active).toBe(false);

    const replaced = await json(
      await scim("PUT", `/Users/${userId}`, {
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
        userName: "grace@navy.example",
        externalId: "entra-42",
        name: { givenName: "Grace", familyName: "Hopper" },
        active: true,
      }),
    );
    expect(replaced).toMatchObject({ userName: "grace@navy.example", active: true, name: { familyName: "Hopper" } });
    expect((await t.request("GET", "/api/platform/v1/users/me", { token: await t.token(userId) })).status).toBe(200);
  });

  it("a group becomes a unit; members are added and removed", async () => {
    const res = await scim("POST", "/Groups", { displayName: "Compiler team", members: [] });
    expect(res.status).toBe(201);
    const group = await json(res);
    const added = await json(
      await scim("PATCH", `/Groups/${group.id}`, patchOp({ op: "Add", path: "members", value: [{ value: userId }] })),
    );
    expect(added.members.map((m: { value: string }) => m.value)).toEqual([userId]);
    const user = await json(await scim("GET", `/Users/${userId}`));
    expect(user.groups).toEqual([expect.objectContaining({ value: group.id, display: "Compiler team" })]);
    const filtered = await json(
      await scim(
        "GET",
        `/Groups?filter=${encodeURIComponent('displayName eq "compiler team"')}&excludedAttributes=members`,
      ),
    );
    expect(filtered.Resources).toEqual([expect.not.objectContaining({ members: expect.anything() })]);

    const removed = await json(
      await scim("PATCH", `/Groups/${group.id}`, patchOp({ op: "Remove", path: `members[value eq "${userId}"]` })),
    );
    expect(removed.members ?? []).toEqual([]);
    expect((await scim("DELETE", `/Groups/${group.id}`)).status).toBe(204);
    expect((await scim("GET", `/Groups/${group.id}`)).status).toBe(404);
  });

  it("a malformed or unsupported filter is 400 invalidFilter; an unknown id 404", async () => {
    for (const filter of ["userName eq", 'shoeSize eq "44"', "active eq 1"]) {
      const res = await scim("GET", `/Users?filter=${encodeURIComponent(filter)}`);
      expect(res.status, filter).toBe(400);
      expect(await json(res)).toMatchObject({ scimType: "invalidFilter", status: "400" });
    }
    const missing = await scim("GET", "/Users/00000000-0000-0000-0000-000000000000");
    expect(missing.status).toBe(404);
    expect(await json(missing)).toMatchObject({
      schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"],
      status: "404",
    });
    const bad = await scim("POST", "/Users", { userName: "not an address" });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ scimType: "invalidValue" });
  });

  it("DELETE removes her; a revoked token stops working", async () => {
    expect((await scim("DELETE", `/Users/${userId}`)).status).toBe(204);
    expect((await scim("GET", `/Users/${userId}`)).status).toBe(404);
    const other = (await runScimTokenCommand(t.database.db, { command: "create", label: "Okta" })) as {
      id: string;
      token: string;
    };
    expect((await scim("GET", "/Users?count=1", undefined, other.token)).status).toBe(200);
    await runScimTokenCommand(t.database.db, { command: "revoke", id: other.id });
    expect((await scim("GET", "/Users?count=1", undefined, other.token)).status).toBe(401);
  });
});
