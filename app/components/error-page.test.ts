import { describe, expect, it } from "vitest";
import { isRouteErrorResponse } from "react-router";
import { errorVariant } from "./error-page";
import { NO_ACCOUNT } from "~/common/errors";

/** Decision 049: the API's "no account here" (403 accountNotProvisioned) is its own page, not the forbidden one. */
describe("errorVariant", () => {
  const response = (status: number, data: unknown) => ({ status, statusText: "", internal: false, data });

  it("a 403 marked as no account is the 'No account here yet' page; any other 403 the forbidden one", () => {
    expect(isRouteErrorResponse(response(403, NO_ACCOUNT))).toBe(true);
    expect(errorVariant(403, response(403, NO_ACCOUNT))).toBe("noAccount");
    expect(errorVariant(403, response(403, null))).toBe("403");
    expect(errorVariant(404, response(404, NO_ACCOUNT))).toBe("404");
  });
});
