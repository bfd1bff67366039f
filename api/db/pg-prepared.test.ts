import { describe, expect, it } from "vitest";
import { preparedStatementsFromEnv } from "./pg-prepared";

// Decision 038, addendum 4: PG_PREPARED_STATEMENTS (per connection, 0 = none) and PG_PLAN_CACHE_MODE.
describe("prepared statements on DATABASE_URL, from the environment", () => {
  it.each([
    [{}, { prepared: { perConnection: 200 }, planCacheMode: "force_generic_plan" }],
    [{ PG_PREPARED_STATEMENTS: "50" }, { prepared: { perConnection: 50 }, planCacheMode: "force_generic_plan" }],
    [{ PG_PREPARED_STATEMENTS: "0" }, { prepared: null, planCacheMode: "force_generic_plan" }],
    [{ PG_PLAN_CACHE_MODE: "auto" }, { prepared: { perConnection: 200 }, planCacheMode: "auto" }],
    [
      { PG_PREPARED_STATEMENTS: " ", PG_PLAN_CACHE_MODE: "" },
      { prepared: { perConnection: 200 }, planCacheMode: "force_generic_plan" },
    ],
  ])("%j → %j", (env, expected) => {
    expect(preparedStatementsFromEnv(env)).toEqual(expected);
  });

  it.each([
    [{ PG_PREPARED_STATEMENTS: "-1" }],
    [{ PG_PREPARED_STATEMENTS: "lots" }],
    [{ PG_PLAN_CACHE_MODE: "generic" }],
  ])("%j stops the server with a message naming the variable", (env) => {
    expect(() => preparedStatementsFromEnv(env)).toThrow(/PG_(PREPARED_STATEMENTS|PLAN_CACHE_MODE)/);
  });
});
