import { describe, expect, it } from "vitest";
import { z } from "zod";
import { zodErrors } from "./errors";

describe("zod issues → field messages: a wrong number is not a missing one", () => {
  const schema = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100), name: z.string() });
  it.each([
    ["1e400", "invalid"], // Infinity
    ["abc", "invalid"], // NaN
    ["0", "invalid"],
  ])("limit=%s → %s; a field not sent → required", (limit, code) => {
    const result = schema.safeParse({ limit });
    expect(result.success).toBe(false);
    const errors = zodErrors(result.error!);
    expect(errors.limit?.[0]?.code).toBe(code);
    expect(errors.name?.[0]?.code).toBe("required");
  });
});
