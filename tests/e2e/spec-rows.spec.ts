import { test, expect, login, expectAccessible, courseIdByName } from "./fixtures";

/**
 * Issue 26, section 2: the spec's last partial rows that reach a learner — /learn/catalog is for learners
 * only (spec 2.1); a failed share-link copy is reported as well as shown (spec 4.5, 8); the PDF viewer's
 * three error texts (spec 8); a course without a communications hub says so on its Notifications address.
 */
test.use({
  learnerRecipe: {
    enrolments: [
      {
        course: "python-basics",
        selfEnrolled: true,
        attempts: [{ state: "inProgress", progress: 0.35, startedAgo: 6 }],
      },
      { course: "git-workflows", selfEnrolled: true },
    ],
  },
});

test(
  "/learn/catalog is for learners: a user with only a research licence goes to the platform",
  { tag: "@js-only" },
  async ({ page }) => {
    await login(page, "rita");
    await expect(page).toHaveURL(/\/platform$/);
    for (const path of ["/learn/catalog", "/learn/catalog?keyword=sql"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/platform$/);
    }
    // A visitor still gets the open catalog.
    await page.context().clearCookies();
    await page.goto("/learn/catalog");
    await expect(page).toHaveURL(/\/learn\/open-catalog$/);
  },
);

test("a share link that cannot be copied is shown as an error and reported", async ({
  page,
  learner,
  jsEnabled,
  request,
}) => {
  await login(page, learner);
  const id = await courseIdByName(page, "Git Workflows for Teams");
  if (!jsEnabled) {
    // Without JavaScript there is nothing to fail: the link is shown to copy by hand.
    await page.goto(`/learn/courses/${id}`);
    await page.getByText("Share").click();
    await expect(page.getByLabel("Link to this course")).toHaveValue(/\/learn\/open-catalog\/.+\/view\/details$/);
    return;
  }
  await page.addInitScript(() => {
    Object.defineProperty(navigator, "clipboard", {
      value: { writeText: () => Promise.reject(new DOMException("Write permission denied.", "NotAllowedError")) },
    });
  });
  await page.goto(`/learn/courses/${id}`);
  await page.getByText("Share").click();
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByText("The link could not be copied")).toBeVisible();
  const reported = async () => {
    const res = await request.get(`/api/test-support/v1/analytics-events?userId=${learner.id}`);
    const body = (await res.json()) as { data: { name: string; props: { message?: string; cause?: string } }[] };
    return body.data.filter((e) => e.name === "error").map((e) => `${e.props.message} (${e.props.cause})`);
  };
  await expect
    .poll(reported, { timeout: 15_000 })
    .toContainEqual(expect.stringMatching(/^The link could not be copied \(NotAllowedError/));
});

test("the PDF viewer says why a file does not open: sign-in, permission, or any other failure (spec 8)", async ({
  page,
  learner,
  jsEnabled,
}) => {
  await login(page, learner);
  const id = await courseIdByName(page, "Python for Data Analysis");
  await page.goto(`/learn/courses/${id}/view/content`);
  const href = await page
    .getByRole("navigation", { name: "Table of contents" })
    .getByRole("link", { name: /Course handbook \(PDF\)/ })
    .getAttribute("href");
  for (const [status, text] of [
    [401, "Please log in to view this file"],
    [403, "You do not have permission to view this file"],
    [500, "Failed to load PDF"],
  ] as const) {
    await page.unroute("**/learn/demo/course-handbook.pdf");
    await page.route("**/learn/demo/course-handbook.pdf", (route) => route.fulfill({ status, body: "" }));
    // Without its #activity- fragment: the same URL with a fragment is a same-document move, no new load.
    await page.goto(href!.split("#")[0]!);
    const viewer = page.getByRole("region", { name: "Course handbook (PDF)" });
    if (jsEnabled) {
      await expect(viewer.getByText(text, { exact: true })).toBeVisible();
    } else {
      // Without JavaScript the browser's own viewer shows the file; the download link stays.
      await expect(viewer.getByRole("link", { name: "Download “Course handbook (PDF)” (PDF)" })).toBeVisible();
      break;
    }
  }
  await expectAccessible(page);
});

test(
  "a course without a communications hub says so on its Notifications address",
  { tag: "@js-only" },
  async ({ page, learner }) => {
    await login(page, learner);
    const id = await courseIdByName(page, "Git Workflows for Teams");
    const response = await page.goto(`/learn/courses/${id}/view/notifications`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
    await expect(page.getByRole("status")).toHaveText(
      "Git Workflows for Teams has no announcements or chat: this course has no communications hub.",
    );
    await page.getByRole("link", { name: "Back to the course" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Git Workflows for Teams" })).toBeVisible();
  },
);
