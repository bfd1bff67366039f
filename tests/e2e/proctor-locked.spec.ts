import { test, expect, login, expectAccessible } from "./fixtures";

/**
 * Issue 26 (journeys, locked courses): ada's proctored exam, whose sitting ended before she handed it in
 * (spec 4.8, decision 010), is marked locked on the dashboard and comes after the courses she can
 * continue; its pages offer no action — no tool to open, no submission — and say who can unlock it.
 */
test.use({ learnerRecipe: { like: "ada" } });
const EXAM = "Data Protection Officer Certification Exam";

test("a course locked by a proctored sitting is marked, its actions disabled, and the page says who unlocks it", async ({
  page,
  learner,
}) => {
  await login(page, learner);
  const section = page.getByRole("region", { name: /Continue learning/ });
  const items = section.getByRole("listitem");
  const exam = items.filter({ has: page.getByRole("link", { name: EXAM }) });
  await expect(exam.getByText("Locked by the proctoring session")).toBeVisible();
  // The courses that can be continued come first; the unlocked ones carry no mark.
  await expect(items.last()).toContainText(EXAM);
  await expect(items.first().getByText("Locked by the proctoring session")).toHaveCount(0);
  await expectAccessible(page);

  // The card leads to the course's page, which says why and who can lift the lock.
  await exam.getByRole("link", { name: EXAM }).click();
  await expect(page.getByRole("heading", { level: 1, name: EXAM })).toBeVisible();
  const why =
    "Locked by the proctoring session. Your proctored sitting is over: only your proctor or an administrator can unlock this course.";
  await expect(page.getByRole("note").filter({ hasText: "Locked by the proctoring session." })).toHaveText(why);
  await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();

  // Its content by address: readable, with nothing to do — no tool to open, submitting disabled.
  await page.goto(page.url().replace(/\/?$/, "/view/content"));
  await expect(page.getByRole("note").filter({ hasText: "Locked by the proctoring session." })).toHaveText(why);
  await expect(page.getByRole("button", { name: /Open the tool/ })).toHaveCount(0);
  await expect(page.locator("iframe")).toHaveCount(0);
  const submit = page.getByRole("button", { name: "Submit the course" });
  await expect(submit).toBeDisabled();
  await expect(submit).toHaveAccessibleDescription(why);
  await expect(page.getByRole("link", { name: "Submit the course" })).toHaveCount(0);
  // The confirmation state by its address offers nothing either.
  await page.goto(`${page.url()}${page.url().includes("?") ? "&" : "?"}confirm=submit`);
  await expect(page.getByRole("button", { name: "Submit", exact: true })).toHaveCount(0);
  await expectAccessible(page);
});
