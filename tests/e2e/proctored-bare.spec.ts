import { test, expect, login, courseIdByName } from "./fixtures";

/**
 * Issue 26 (spec 2.1 `inProctoringIframe`): inside the proctoring service's frame the sitting shows the
 * activity alone — no header, menu or feedback button in the framed wrapper, and the activity's own
 * page inside it without the course around it (no table of contents, no "Submit the course").
 */
test.use({
  learnerRecipe: {
    enrolments: [
      {
        course: "sql-fundamentals",
        selfEnrolled: true,
        attempts: [{ state: "inProgress", progress: 0, startedAgo: 1 }],
      },
    ],
  },
});

test("a proctored sitting, as its service frames it, shows the activity alone", async ({
  page,
  learner,
  jsEnabled,
}) => {
  await login(page, learner);
  const id = await courseIdByName(page, "SQL Fundamentals");
  await page.goto(`/learn/courses/${id}/view/content`);
  const quiz = page.getByRole("navigation", { name: "Table of contents" }).getByRole("link", { name: /Final quiz/ });
  await page.goto((await quiz.getAttribute("href"))!);
  await page.getByRole("link", { name: "Take this activity in a proctored sitting" }).click();
  await page.getByRole("button", { name: "Start the proctored sitting" }).click();
  await expect(page.getByText("Start token verified with the platform's keys.")).toBeVisible();

  const wrapper = page.frameLocator('iframe[title="Proctored activity"]');
  await expect(wrapper.getByRole("heading", { level: 1, name: "Final quiz" })).toBeVisible();
  // The wrapper in the frame: no shell.
  await expect(wrapper.getByRole("banner")).toHaveCount(0);
  await expect(wrapper.getByRole("navigation", { name: "Main navigation" })).toHaveCount(0);
  await expect(wrapper.getByRole("button", { name: "Give feedback" })).toHaveCount(0);
  // The activity in the wrapper's frame: alone.
  const activity = wrapper.frameLocator('iframe[title="Final quiz"]');
  await expect(activity.getByRole("heading", { level: 1, name: "Final quiz" })).toBeVisible();
  for (const frame of [activity]) {
    await expect(frame.getByRole("banner")).toHaveCount(0);
    await expect(frame.getByRole("navigation", { name: "Main navigation" })).toHaveCount(0);
    await expect(frame.getByRole("navigation", { name: "Table of contents" })).toHaveCount(0);
    await expect(frame.getByRole("link", { name: "Submit the course" })).toHaveCount(0);
    await expect(frame.getByRole("link", { name: "Take this activity in a proctored sitting" })).toHaveCount(0);
  }
  // The quiz itself is there: its tool launched in place (JavaScript) or a button that opens it.
  if (jsEnabled)
    await expect(
      activity.frameLocator("iframe.lti-launch__frame").getByText("Launch verified with the platform's keys."),
    ).toBeVisible({
      timeout: 15_000,
    });
  else await expect(activity.getByRole("button", { name: "Open the tool", exact: true })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("sitting.png"), fullPage: true });
});
