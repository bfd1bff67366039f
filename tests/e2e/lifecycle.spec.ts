import { test, expect, login, expectAccessible, courseIdByName, finishActivities } from "./fixtures";

// Each test learns with a learner of its own (decision 014): no run shares a workflow with another.

test.describe("the learning lifecycle (spec 4.3–4.7)", () => {
  test.describe.configure({ timeout: 90_000 });
  test("start → content → submit with confirmation → results → start again → review the first attempt", async ({
    page,
    jsEnabled,
    learner,
  }) => {
    await login(page, learner);
    await expect(page.locator("details.user-menu")).toBeVisible();
    const id = await courseIdByName(page, "Git Workflows for Teams");

    await page.goto(`/learn/courses/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Git Workflows for Teams" })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Start", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/learn/courses/${id}/view/content`));
    await expect(page.getByRole("navigation", { name: "Table of contents" })).toBeVisible();
    await expectAccessible(page);

    await finishActivities(page, 2);

    // Submit asks first: a dialog with JavaScript, a confirmation page without.
    await page.getByRole("link", { name: "Submit the course" }).click();
    if (jsEnabled) await expect(page.getByRole("dialog", { name: "Submit your results?" })).toBeVisible();
    else await expect(page).toHaveURL(/confirm=submit/);
    await expect(
      page.getByText("The results will be submitted and the course cannot be resumed.").first(),
    ).toBeVisible();
    // The graded lab is not done: submitting now fails the course, and the confirmation says so and asks again.
    await expect(page.getByText("Submitting now records 0 % and the course as not passed.").first()).toBeVisible();
    const submit = page.getByRole("button", { name: "Submit", exact: true });
    await submit.click();
    await expect(page.getByText(/Your results were submitted/)).toHaveCount(0);
    await page.getByRole("checkbox", { name: "Yes, submit and record the course as not passed" }).check();
    await submit.click();

    await expect(page).toHaveURL(new RegExp(`/learn/courses/${id}$`));
    await expect(page.getByText(/Your results were submitted/)).toBeVisible();
    const results = page.getByRole("region", { name: "Results" });
    await expect(results.getByText("Finished")).toBeVisible();
    await expect(results.locator(".score")).toHaveText(/\d+%/);

    // Start again (retake is allowed on this course): a second attempt; the first becomes a previous attempt.
    await page.getByRole("button", { name: "Start again" }).click();
    await expect(page).toHaveURL(new RegExp(`/learn/courses/${id}/view/content`));
    await page.goto(`/learn/courses/${id}`);
    await expect(page.getByRole("link", { name: "Continue" })).toBeVisible();
    await page.getByText("1 previous attempt").click();
    await page.getByRole("table").getByRole("link", { name: "Review" }).click();
    await expect(page.getByText("Review mode: you are looking at a finished attempt.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Mark as done" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Start activity" })).toHaveCount(0);
  });

  test("a course the learner cannot access shows 'Course is not available' with 404", async ({ page, learner }) => {
    await login(page, learner);
    await expect(page.locator("details.user-menu")).toBeVisible();
    for (const path of ["/learn/courses/00000000-0000-4000-8000-000000000000", "/learn/courses/not-a-course"]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Course is not available");
    }
  });
});

test("an unknown activity of a started course goes back to the course details with 'Module not found' (spec 2.5, issue 26)", async ({
  page,
  newLearner,
}) => {
  // An attempt in progress at this demo course, as ada has one.
  const learner = await newLearner({
    enrolments: [
      {
        course: "python-basics",
        selfEnrolled: true,
        attempts: [{ state: "inProgress", progress: 0.35, startedAgo: 6 }],
      },
    ],
  });
  await login(page, learner);
  await expect(page.locator("details.user-menu")).toBeVisible();
  await page.goto("/learn/catalog?keyword=python");
  const href = await page.getByRole("link", { name: "Python for Data Analysis" }).first().getAttribute("href");
  const id = /\/learn\/catalog\/([0-9a-f-]{36})/.exec(href ?? "")![1];
  await page.goto(`/learn/courses/${id}/view/content?activityPathId=00000000-0000-4000-8000-000000000000`);
  await expect(page).toHaveURL(new RegExp(`/learn/courses/${id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Python for Data Analysis");
  await expect(page.getByText("Module not found")).toBeVisible();
  // The same for an address of the content viewer's other form (an axis that is no activity's).
  await page.goto(`/learn/courses/${id}/view/content/99.99`);
  await expect(page).toHaveURL(new RegExp(`/learn/courses/${id}$`));
  await expect(page.getByText("Module not found")).toBeVisible();
});
