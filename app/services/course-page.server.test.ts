import { describe, expect, it } from "vitest";
import { testAppConfig } from "../../tests/fixtures/app-config";
import { loadCourse } from "./course-page.server";
import { LmsError, type LmsClient } from "./lms.server";
import { popToast } from "./toast.server";

const config = testAppConfig();

/** An LMS client whose every read fails with `status`. */
const failing = (status: number) =>
  ({
    get: async () => {
      throw new LmsError(status, {});
    },
  }) as unknown as LmsClient;

async function thrown(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected a throw");
}

describe("spec 8: loading a course", () => {
  it.each([500, 409, 429, 503])("a %i is the unknown-error toast on My courses, not the 500 page", async (status) => {
    const response = (await thrown(loadCourse(failing(status), "o1", { config }))) as Response;
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/learn/courses");
    const cookie = response.headers.get("Set-Cookie")!.split(";")[0];
    const { toasts } = await popToast(new Request("http://localhost:3000/", { headers: { Cookie: cookie } }), config);
    expect(toasts).toEqual([expect.objectContaining({ type: "critical", key: "messages.unknownError" })]);
  });

  it.each([400, 403, 404])("a %i is 'Course is not available' (404)", async (status) => {
    const err = await thrown(loadCourse(failing(status), "o1", { config }));
    expect(err).toMatchObject({ data: "course-unavailable", init: { status: 404 } });
  });

  it("a 401 stays a 401 (sign in again)", async () => {
    const err = await thrown(loadCourse(failing(401), "o1", { config }));
    expect(err).toBeInstanceOf(LmsError);
  });
});
