/** Which failures the API answers with 503 rather than 500 (decision 053). */
import { describe, expect, it } from "vitest";
import { unavailableDependency } from "./errors";
import { StorageUnavailable } from "./files/object-store";

const code = (message: string, c: string) => Object.assign(new Error(message), { code: c });
const query = (cause: unknown) => new Error("Failed query: select 1\nparams: ", { cause });

describe("unavailableDependency", () => {
  it.each([
    ["a query that could not connect", query(code("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")), "database"],
    [
      "a query the server refused while starting",
      query(code("the database system is starting up", "57P03")),
      "database",
    ],
    ["a query on a full disk", query(code("could not extend file: No space left on device", "53100")), "database"],
    ["the storage", new StorageUnavailable("unreachable: ECONNREFUSED"), "storage"],
    [
      "the storage under another error",
      new Error("import failed", { cause: new StorageUnavailable("disk full") }),
      "storage",
    ],
    [
      "another service refusing (not the database)",
      new Error("fetch failed", { cause: code("connect", "ECONNREFUSED") }),
      null,
    ],
    ["a query's own error", query(code('duplicate key value violates unique constraint "x"', "23505")), null],
    ["a bug", new TypeError("x is undefined"), null],
  ])("%s", (_name, error, expected) => {
    expect(unavailableDependency(error)?.dependency ?? null).toBe(expected);
  });
});
