/** The API's log lines carry the request id the front gave it (decision 037). */
import { expect, it } from "vitest";
import { log, withRequestId } from "./log";

it("the API binds the id it is given for everything the request runs", async () => {
  await withRequestId("api-7", async () => {
    await new Promise((r) => setTimeout(r, 5));
    expect(log().bindings()).toMatchObject({ reqId: "api-7" });
  });
  expect(log().bindings().reqId).toBeUndefined();
  // No id (a job, a call without the header): the root logger.
  await withRequestId(undefined, async () => expect(log().bindings().reqId).toBeUndefined());
});
