import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { users } from "../../api/db/schema";

let t: TestApi;
beforeAll(async () => {
  // 20 time-zone commands at once is this file's idempotency test, not a limit test
  // (write-limits-api.test.ts).
  t = await createTestApi({ writeLimits: { profile: { points: 1_000, durationSeconds: 60 } } });
});
afterAll(() => t.close());

describe("authentication (bearer token against the provider's keys)", () => {
  it.each([
    ["no token", null],
    ["garbage", "not-a-jwt"],
  ])("rejects %s with 401 and the error body", async (_name, token) => {
    const res = await t.request("GET", "/api/platform/v1/users/me", { token });
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body).toMatchObject({ status: 401, errors: { "": [{ code: "unauthorized" }] } });
  });

  it("rejects a token from another issuer, for another audience, or expired", async () => {
    for (const opts of [{ issuer: "https://evil.test" }, { audience: "other-api" }, { expiresIn: "-1m" }]) {
      const res = await t.request("GET", "/api/platform/v1/users/me", { token: await t.token("ada", opts) });
      expect(res.status).toBe(401);
    }
  });

  it("rejects a valid token whose subject is not a user", async () => {
    const res = await t.request("GET", "/api/platform/v1/users/me", {
      token: await t.token("00000000-0000-4000-8000-000000000000"),
    });
    expect(res.status).toBe(401);
  });
});

describe("current user, permissions, licences, settings", () => {
  it("returns ada as a learner-only user with her primary unit", async () => {
    const res = await t.request("GET", "/api/platform/v1/users/me", { token: await t.token("ada") });
    expect(res.status).toBe(200);
    const me = await res.json();
    expect(me).toMatchObject({
      email: "ada@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      roles: ["Learner"],
      role: "Learner",
    });
    expect(me.units).toEqual([expect.objectContaining({ name: "Engineering", is_primary: true })]);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("lists grace's roles in a stable order and both units, primary first", async () => {
    const me = await (await t.request("GET", "/api/platform/v1/users/me", { token: await t.token("grace") })).json();
    expect(me.roles).toEqual(["Instructor", "Learner"]);
    expect(me.units.map((u: { is_primary: boolean }) => u.is_primary)).toEqual([true, false]);
  });

  it("returns permission entries with scope_id and without duplicates", async () => {
    const body = await (
      await t.request("GET", "/api/platform/v1/users/me/permissions", { token: await t.token("ada") })
    ).json();
    expect(body.data).toEqual([{ permission: "ObjectiveWorkflow.Create", scope_id: null }]);
    const admin = await (
      await t.request("GET", "/api/platform/v1/users/me/permissions", { token: await t.token("admin") })
    ).json();
    expect(admin.data.map((p: { permission: string }) => p.permission).sort()).toEqual([
      "Admin.Access",
      "ObjectiveWorkflow.Create",
      "Research.Access",
    ]);
  });

  it("returns licences: rita only has Platform.Research", async () => {
    const body = await (
      await t.request("GET", "/api/platform/v1/users/me/licences", { token: await t.token("rita") })
    ).json();
    expect(body.data.map((l: { product: string }) => l.product)).toEqual(["Platform.Research"]);
  });

  it("returns tenant settings with all supported locales and the demo tenant's feature set", async () => {
    const s = await (await t.request("GET", "/api/platform/v1/settings", { token: await t.token("ada") })).json();
    expect(s["platform.common.supported_locales"].split(",")).toHaveLength(36);
    expect(s["platform.common.locale"]).toBe("en-US");
    expect(s["platform.ui.feedback"]).toEqual({ "learner.visible": true });
    expect(s.features).toEqual({
      catalog: true,
      rooms: false,
      // The demo tenant turns the dashboard and the calendar on (demo/data/tenant.json).
      calendar: true,
      researchProjects: false,
      knowledgeModels: false,
      dashboard: true,
      compositeRetake: true,
    });
  });

  it("serves public settings without a token", async () => {
    const res = await t.request("GET", "/api/platform/v1/public/settings");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ portalName: "Learning Portal", defaultLocale: "en-US" });
  });
});

describe("units and time zone (spec 7.6)", () => {
  it("refuses another user's units with 404", async () => {
    const res = await t.request("GET", `/api/platform/v1/users/${t.users.grace}/units`, {
      token: await t.token("ada"),
    });
    expect(res.status).toBe(404);
    const own = await t.request("GET", `/api/platform/v1/users/${t.users.ada}/units`, { token: await t.token("ada") });
    expect((await own.json()).items).toHaveLength(1);
  });

  it("validates the body: missing, too long, unknown zone, not JSON", async () => {
    const token = await t.token("ada");
    const path = `/api/platform/v1/users/${t.users.ada}/timezone`;
    const missing = await t.request("POST", path, { token, body: {} });
    expect(missing.status).toBe(400);
    expect((await missing.json()).errors.timezone[0]).toMatchObject({ code: "required", message: "Field is required" });
    const long = await t.request("POST", path, { token, body: { timezone: "x".repeat(65) } });
    expect((await long.json()).errors.timezone[0]).toMatchObject({ code: "maxLength", params: { length: 64 } });
    const unknown = await t.request("POST", path, { token, body: { timezone: "Mars/Olympus" } });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).errors.timezone[0].code).toBe("invalidTimezone");
    const garbled = await t.request("POST", path, { token, body: "{not json" });
    expect(garbled.status).toBe(400);
    const wrongType = await t.request("POST", path, {
      token,
      body: "timezone=UTC",
      headers: { "Content-Type": "text/plain" },
    });
    expect(wrongType.status).toBe(415);
  });

  it("refuses to change another user's time zone and changes nothing", async () => {
    const res = await t.request("POST", `/api/platform/v1/users/${t.users.grace}/timezone`, {
      token: await t.token("ada"),
      body: { timezone: "Asia/Tokyo" },
    });
    expect(res.status).toBe(404);
    const [grace] = await t.database.db.select().from(users).where(eq(users.id, t.users.grace));
    expect(grace.timezone).toBeNull();
  });

  it("runs as an async command: 202 with a status location that reports completion (spec 7.7)", async () => {
    const token = await t.token("ada");
    const commandId = crypto.randomUUID();
    const res = await t.request("POST", `/api/platform/v1/users/me/timezone`, {
      token,
      body: { timezone: "Asia/Tokyo", commandId },
      headers: { Prefer: "respond-async" },
    });
    expect(res.status).toBe(202);
    const location = res.headers.get("location")!;
    expect(location).toBe(`/api/lms/v1/commands/${commandId}`);
    const status = await (await t.request("GET", location, { token })).json();
    expect(status).toMatchObject({ id: commandId, state: "completed", result: 1, data: { timezone: "Asia/Tokyo" } });
    // another learner cannot read the command
    expect((await t.request("GET", location, { token: await t.token("grace") })).status).toBe(404);
  });

  it("is idempotent: the same command id twice, or 20 at once, applies once and answers alike", async () => {
    const token = await t.token("ada");
    const commandId = crypto.randomUUID();
    const send = (tz: string) =>
      t.request("POST", `/api/platform/v1/users/me/timezone`, {
        token,
        body: { timezone: tz, commandId },
        headers: { Prefer: "respond-sync" },
      });
    const answers = await Promise.all(Array.from({ length: 20 }, () => send("Europe/Paris")));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect((await (await send("Europe/Paris")).json()).data).toEqual({ timezone: "Europe/Paris" });
    // The same id with another time zone is another command: 409 at once, nothing changes (decision 018).
    const later = await send("America/New_York");
    expect(later.status).toBe(409);
    expect((await later.json()).errors.id[0].code).toBe("commandIdReused");
    const [ada] = await t.database.db.select().from(users).where(eq(users.id, t.users.ada));
    expect(ada.timezone).toBe("Europe/Paris");
  });

  it("keeps command ids per user: another user's command with the same id is theirs, and runs", async () => {
    const commandId = crypto.randomUUID();
    const send = async (user: string, timezone: string) =>
      t.request("POST", `/api/platform/v1/users/me/timezone`, {
        token: await t.token(user),
        body: { timezone, commandId },
      });
    expect((await send("ada", "UTC")).status).toBe(200);
    const res = await send("grace", "Asia/Tokyo");
    expect(res.status).toBe(200);
    const [grace] = await t.database.db.select().from(users).where(eq(users.id, t.users.grace));
    expect(grace.timezone).toBe("Asia/Tokyo");
  });
});

describe("errors and documentation", () => {
  it("unknown endpoints and wrong methods are 404 with the error body, never 500", async () => {
    const res = await t.request("DELETE", "/api/platform/v1/users/me", { token: await t.token("ada") });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: 404 });
  });

  // That it lists every endpoint, and only endpoints, is tests/integration/openapi-api.test.ts (decision 034).
  it("serves the OpenAPI document without sign-in", async () => {
    const res = await t.request("GET", "/api/openapi.json");
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(
      doc.paths["/api/platform/v1/users/me"].get.responses["200"].content["application/json"].schema.required,
    ).toContain("email");
  });
});

describe("mini-group members (spec 2.9; path not shown)", () => {
  it("lists the members of ada's mini-group of four with their primary unit, in one query", async () => {
    const token = await t.token("ada");
    const before = t.database.queryCount();
    const res = await t.request("GET", `/api/platform/v1/users/${t.users.ada}/mini-group-members`, { token });
    expect(t.database.queryCount() - before).toBeLessThanOrEqual(3);
    expect(res.status).toBe(200);
    const { items } = await res.json();
    expect(items.map((m: { email: string }) => m.email).sort()).toEqual([
      "ada@example.com",
      "grace@example.com",
      "katherine@example.com",
      "margaret@example.com",
    ]);
    expect(items.find((m: { email: string }) => m.email === "katherine@example.com")).toMatchObject({
      first_name: "Katherine",
      middle_name: "Coleman",
      last_name: "Johnson",
      primary_unit: "Research",
    });
    const me = await t.request("GET", "/api/platform/v1/users/me/mini-group-members", { token });
    expect((await me.json()).items).toHaveLength(4);
  });

  it("another user's id is 404, a garbled one too", async () => {
    const token = await t.token("ada");
    for (const id of [t.users.grace, "not-a-uuid"])
      expect((await t.request("GET", `/api/platform/v1/users/${id}/mini-group-members`, { token })).status).toBe(404);
  });

  it("a user in no mini-group gets an empty list", async () => {
    const res = await t.request("GET", "/api/platform/v1/users/me/mini-group-members", {
      token: await t.token("rita"),
    });
    expect((await res.json()).items).toEqual([]);
  });
});
