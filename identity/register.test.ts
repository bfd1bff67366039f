import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Database } from "../api/db/client";
import { openTestDatabase } from "../tests/fixtures/database";
import { seedDemo } from "../demo/seed";
import { licences, pendingRegistrations, userRoles, users } from "../api/db/schema";
import { verifyPassword } from "./password";
import { registerLearner } from "./register";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await seedDemo(database.db, { catalog: false });
});
afterAll(() => database.close());

describe("self-registration in the embedded provider", () => {
  it("creates a learner with the LMS licence, a hashed password and a registration to greet once", async () => {
    const r = await registerLearner(database.db, {
      firstName: " Lin ",
      lastName: "Wei",
      email: "Lin@Example.com ",
      password: "correct horse",
    });
    expect(r.ok).toBe(true);
    if (!r.ok || !r.userId) throw new Error("not created");
    const [u] = await database.db.select().from(users).where(eq(users.id, r.userId));
    expect(u).toMatchObject({ email: "lin@example.com", firstName: "Lin", lastName: "Wei" });
    expect(await verifyPassword("correct horse", u.passwordHash)).toBe(true);
    expect(
      (await database.db.select().from(userRoles).where(eq(userRoles.userId, r.userId))).map((x) => x.role),
    ).toEqual(["Learner"]);
    expect(
      (await database.db.select().from(licences).where(eq(licences.userId, r.userId))).map((x) => x.product),
    ).toEqual(["LMS"]);
    expect(
      await database.db.select().from(pendingRegistrations).where(eq(pendingRegistrations.userId, r.userId)),
    ).toHaveLength(1);
  });

  it("answers a taken e-mail like a new one (no account made, nothing that tells them apart)", async () => {
    const before = (await database.db.select().from(users)).length;
    const r = await registerLearner(database.db, {
      firstName: "Someone",
      lastName: "Else",
      email: "ADA@example.com",
      password: "12345678",
    });
    expect(r).toEqual({
      ok: true,
      userId: null,
      values: { firstName: "Someone", lastName: "Else", email: "ada@example.com" },
    });
    expect((await database.db.select().from(users)).length).toBe(before);
  });

  it.each([
    [{ firstName: "", lastName: "x", email: "a@b.co", password: "12345678" }, "firstName", "fieldRequired"],
    [{ firstName: "a", lastName: "x", email: "not-an-email", password: "12345678" }, "email", "invalidEmail"],
    [{ firstName: "a", lastName: "x", email: "a@b.co", password: "short" }, "password", "passwordTooShort"],
    [{ firstName: "a".repeat(101), lastName: "x", email: "a@b.co", password: "12345678" }, "firstName", "tooLong"],
  ])("refuses %j with %s: %s and creates nothing", async (input, field, code) => {
    const before = (await database.db.select().from(users)).length;
    const r = await registerLearner(database.db, input);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[field as "email"]?.code).toBe(code);
    expect((await database.db.select().from(users)).length).toBe(before);
  });
});
