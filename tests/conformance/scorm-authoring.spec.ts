import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext, Frame, Page } from "@playwright/test";
import { test, expect, login } from "../e2e/fixtures";
import { zipFolder } from "../../api/scorm/zip-folder";
import { sessionCentis } from "../../domain/scorm-time";
import { ActivityWorkflowState } from "../../domain/vocabulary";

/**
 * Issue 30 "Prove it": a SCORM 1.2 and a SCORM 2004 course exported by an authoring tool (Articulate
 * Storyline, whose output talks to the LMS through Rustici's SCORM Driver, `lms/scormdriver.js`) through
 * import → launch → leave → resume → finish, with the total time, score and completion read back from the
 * database after every session, and the activity's state on the course page.
 *
 * The exports are published on GitHub without a licence, so no copy is kept in this repository (tests/
 * fixtures/scorm-cts/ holds only what its licence lets us keep). Point SCORM_AUTHORING_DIR at a folder
 * holding each package unpacked in the folder named below (the repository's tree at that commit, the
 * manifest at its root); without it the test is skipped and says why.
 *
 * The learner's actions are the course's own: the harness calls the functions of the course's SCORM
 * driver that its slides' triggers call (bookmark at a slide change, the results slide's score, "passed",
 * "reached the end", the exit button's ConcedeControl), and leaves and comes back through the app.
 */
const PACKAGES = [
  {
    dir: "print-production",
    title: "Print Production 8820",
    version: "1.2" as const,
    source: "https://github.com/snordlund/PrintProduction @ 3e768d6c9eb69e1234a5b39583f636c60fc0f109",
  },
  {
    dir: "bleeding-course",
    title: "Bleeding_Course",
    version: "2004" as const,
    source:
      "https://github.com/reidwiktoria-design/Bleeding_Course---Storyline-output @ f6220447e3a9b5a819eb7e3deeced83a1e222345",
  },
];
const ROOT = process.env.SCORM_AUTHORING_DIR;

/** The driver's entry modes (scormdriver.js). */
const ENTRY_FIRST_TIME = 2;
const ENTRY_RESUME = 3;

interface AttemptRow {
  scoId: string;
  attempt: number;
  state: string;
  totalCentis: number;
  cmi: Record<string, string>;
  activityWorkflowState: number;
  score: number | null;
  passed: boolean | null;
}

const attempts = async (request: APIRequestContext, learnerId: string): Promise<AttemptRow[]> =>
  (
    (await (await request.get(`/api/test-support/v1/scorm-attempts?learner=${learnerId}`)).json()) as {
      data: AttemptRow[];
    }
  ).data.map((row) => ({ ...row, totalCentis: Number(row.totalCentis) }));

/** The course's SCO frame (index_lms.html on the content origin), once its driver has started. */
async function driverFrame(page: Page): Promise<Frame> {
  let found: Frame | undefined;
  await expect
    .poll(
      async () => {
        found = page.frames().find((f) => /\/scorm\/[^/]+\/index_lms\.html/.test(f.url()));
        if (!found) return false;
        return found
          .evaluate(() => {
            const w = window as unknown as { IsLoaded?: () => boolean };
            return typeof w.IsLoaded === "function" && w.IsLoaded();
          })
          .catch(() => false);
      },
      { timeout: 90_000, message: "the course's SCORM driver never started" },
    )
    .toBe(true);
  return found!;
}

/** Calls one of the driver's global functions in the SCO frame. */
const call = (frame: Frame, name: string, ...args: unknown[]) =>
  frame.evaluate(
    ([fn, rest]) => (window as unknown as Record<string, (...a: unknown[]) => unknown>)[fn as string](...(rest as [])),
    [name, args] as const,
  );

/** Waits until the database holds what the test expects of the learner's one attempt. */
async function settled(request: APIRequestContext, learnerId: string, ok: (row: AttemptRow) => boolean) {
  let rows: AttemptRow[] = [];
  await expect
    .poll(
      async () => {
        rows = await attempts(request, learnerId);
        return rows.length === 1 && ok(rows[0]!);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return rows[0]!;
}

test.describe.configure({ mode: "serial" });

for (const pkg of PACKAGES) {
  test(`${pkg.title} (Storyline, SCORM ${pkg.version}): import, launch, leave, resume, finish`, async ({
    page,
    request,
    learner,
    consoleErrors,
  }) => {
    const folder = ROOT ? join(ROOT, pkg.dir) : "";
    test.skip(
      !ROOT || !existsSync(join(folder, "imsmanifest.xml")),
      `SCORM_AUTHORING_DIR/${pkg.dir} holds no package (${pkg.source}; not kept here: it has no licence)`,
    );
    test.setTimeout(300_000);
    const v12 = pkg.version === "1.2";
    const status = v12 ? "cmi.core.lesson_status" : "cmi.completion_status";
    const location = v12 ? "cmi.core.lesson_location" : "cmi.location";
    const exit = v12 ? "cmi.core.exit" : "cmi.exit";
    const sessionTime = v12 ? "cmi.core.session_time" : "cmi.session_time";

    // Import: the product's import (the CLI's), into a course of its own the learner is enrolled in.
    const zip = zipFolder(folder);
    const body = readFileSync(zip);
    rmSync(zip);
    const made = await request.post(
      `/api/test-support/v1/scorm-courses?learner=${learner.id}&name=${encodeURIComponent(pkg.title)}`,
      { data: body, headers: { "Content-Type": "application/zip" } },
    );
    expect(made.status(), await made.text()).toBe(201);

    // Session 1: a new attempt; the learner's name reaches the course; it moves on to slide 3 and leaves.
    await login(page, learner, "/learn/courses");
    await page.getByRole("link", { name: pkg.title }).first().click();
    await page.getByRole("button", { name: "Start activity" }).click();
    let sco = await driverFrame(page);
    expect(await call(sco, "GetEntryMode")).toBe(ENTRY_FIRST_TIME);
    expect(await call(sco, "GetPreviouslyAccumulatedTime")).toBe(0);
    const [first, ...rest] = learner.name.split(" ");
    expect(await call(sco, "GetStudentName")).toBe(`${rest.join(" ")}, ${first}`);
    expect(await call(sco, "GetStudentID")).toBe(learner.id);
    await call(sco, "SetBookmark", "slide-3", "Slide 3");
    await call(sco, "SetDataChunk", "learner-was-on-slide-3");
    await call(sco, "CommitData");
    await page.waitForTimeout(2_000); // time on the slide: the session time must be more than nothing
    await page.getByRole("link", { name: "Courses" }).first().click();
    await expect(page).toHaveURL(/\/learn\/courses/);
    const left = await settled(request, learner.id, (row) => row.state === "suspended");
    expect(left).toMatchObject({ attempt: 1, state: "suspended", score: null });
    expect(left.activityWorkflowState).toBe(ActivityWorkflowState.inProgress);
    expect(left.cmi[exit]).toBe("suspend");
    expect(left.cmi[location]).toBe("slide-3");
    expect(left.cmi["cmi.suspend_data"]).toBe("learner-was-on-slide-3");
    expect(left.cmi[status]).toBe("incomplete");
    const session1 = sessionCentis(pkg.version, left.cmi[sessionTime] ?? "");
    expect(session1).toBeGreaterThan(0);
    expect(left.totalCentis).toBe(session1);

    // Session 2: resume where it left, with the time so far; finish with a score and "passed".
    // The activity is in progress: the course opens on the package, which resumes.
    await page.getByRole("link", { name: pkg.title }).first().click();
    sco = await driverFrame(page);
    expect(await call(sco, "GetEntryMode")).toBe(ENTRY_RESUME);
    expect(await call(sco, "GetBookmark")).toBe("slide-3");
    expect(await call(sco, "GetDataChunk")).toBe("learner-was-on-slide-3");
    expect(await call(sco, "GetPreviouslyAccumulatedTime")).toBe(left.totalCentis * 10);
    await page.waitForTimeout(1_500);
    await call(sco, "SetScore", 80, 100, 0);
    await call(sco, "SetPassed");
    await call(sco, "SetReachedEnd");
    await call(sco, "ConcedeControl");
    const done = await settled(request, learner.id, (row) => row.state === "ended");
    expect(done.attempt).toBe(1);
    expect(done.cmi[exit]).toBe(v12 ? "" : "normal");
    expect(done.cmi[v12 ? "cmi.core.score.raw" : "cmi.score.raw"]).toBe("80");
    if (v12) expect(done.cmi[status]).toBe("passed");
    else {
      expect(done.cmi["cmi.score.scaled"]).toBe("0.8");
      expect(done.cmi[status]).toBe("completed");
      expect(done.cmi["cmi.success_status"]).toBe("passed");
    }
    const session2 = sessionCentis(pkg.version, done.cmi[sessionTime] ?? "");
    expect(session2).toBeGreaterThan(0);
    expect(done.totalCentis).toBe(left.totalCentis + session2!);
    expect(done.activityWorkflowState).toBe(ActivityWorkflowState.finished);
    expect(done.passed).toBe(true);
    expect(done.score).not.toBeNull();

    // The course page shows the activity finished.
    await page.reload();
    await expect(page.getByText("You have finished this package.")).toHaveCount(1);
    consoleErrors.length = 0; // the course's own console output is not the product's to judge
  });
}
