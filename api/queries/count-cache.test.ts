import { describe, expect, it } from "vitest";
import { CountCache } from "./count-cache";

/** A count statement as drizzle builds it: its SQL, and the rows it reads when awaited (counted). */
function statement(sql: string, params: unknown[], n: () => number) {
  type Then = PromiseLike<{ n: number }[]>["then"];
  const q = {
    reads: 0,
    toSQL: () => ({ sql, params }),
    then: ((ok, ko) => {
      q.reads++;
      return Promise.resolve([{ n: n() }]).then(ok, ko);
    }) as Then,
  };
  return q;
}

const ada = "0d6d2b8e-0000-4000-8000-000000000001";
const grace = "0d6d2b8e-0000-4000-8000-000000000002";

describe("list totals remembered until their data changes (decision 038)", () => {
  it("reads a count once per statement and parameters, then answers from memory", async () => {
    const cache = new CountCache();
    let n = 963;
    const q = statement("select count(*) from owa where user_id = $1", [ada], () => n);
    expect(await cache.count(ada, q)).toBe(963);
    n = 964;
    expect(await cache.count(ada, q)).toBe(963);
    expect(q.reads).toBe(1);
    const other = statement("select count(*) from owa where user_id = $1", [grace], () => 5);
    expect(await cache.count(grace, other)).toBe(5);
  });

  it("forgets a user's counts on their notice or their own write, and every count on 'all'", async () => {
    const cache = new CountCache();
    let n = 1;
    const mine = statement("count mine", [ada], () => n);
    const tenant = statement("count catalog", ["tenant"], () => 10 * n);
    await cache.count(ada, mine);
    await cache.count(null, tenant);
    n = 2;
    cache.forgetAfter({ kind: "user", userId: grace });
    cache.forgetAfter({ kind: "chat", channelId: grace });
    expect([await cache.count(ada, mine), await cache.count(null, tenant)]).toEqual([1, 10]);
    cache.forgetAfter({ kind: "user", userId: ada });
    expect([await cache.count(ada, mine), await cache.count(null, tenant)]).toEqual([2, 10]);
    n = 3;
    cache.forgetUser(ada);
    expect(await cache.count(ada, mine)).toBe(3);
    cache.forgetAfter({ kind: "all" });
    expect(await cache.count(null, tenant)).toBe(30);
  });

  it("keeps no count read while a notice came, nor one whose statement reads the clock", async () => {
    const cache = new CountCache();
    let n = 1;
    const q = statement("count mine", [ada], () => n);
    const reading = cache.count(ada, q);
    cache.forgetAfter({ kind: "user", userId: grace });
    expect(await reading).toBe(1);
    n = 2;
    expect(await cache.count(ada, q)).toBe(2);
    const dated = statement("select count(*) from x where due < now()", [], () => n);
    await cache.count(ada, dated);
    await cache.count(ada, dated);
    expect(dated.reads).toBe(2);
    expect(cache.size).toBe(1);
  });
});
