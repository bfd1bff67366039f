import { test, expect, login, expectAccessible, courseIdByName, finishActivities } from "./fixtures";

/**
 * Issue 26 (journeys): "Submit the course" is offered at any progress; its confirmation — the dialog
 * with JavaScript, the page's confirmation state without — says what is not done yet, and which.
 */
test.use({
  learnerRecipe: {
    enrolments: [
      { course: "git-workflows", selfEnrolled: true, attempts: [{ state: "inProgress", progress: 0, startedAgo: 1 }] },
    ],
  },
});

test("the submit confirmation names the activities not done yet", async ({ page, learner, jsEnabled }) => {
  await login(page, learner);
  const id = await courseIdByName(page, "Git Workflows for Teams");
  await page.goto(`/learn/courses/${id}/view/content`);

  const confirmation = async () => {
    await page.getByRole("link", { name: "Submit the course" }).click();
    if (jsEnabled) {
      const dialog = page.getByRole("dialog", { name: "Submit your results?" });
      await expect(dialog).toBeVisible();
      return dialog;
    }
    await expect(page).toHaveURL(/confirm=submit/);
    return page.locator(".confirm", { has: page.locator("#confirm-page-title") });
  };

  // The course opened on its first activity, a text: opening it completed it (its completion rule).
  let confirm = await confirmation();
  await expect(confirm.getByText("Activities not done yet: 4 of 5")).toBeVisible();
  await expect(confirm.getByRole("listitem")).toHaveText([
    "Trunk-based development",
    "Feature branches and pull requests",
    "Rebase or merge?",
    "Lab: resolve a merge conflict",
  ]);
  if (jsEnabled) await expect(confirm).toHaveAccessibleDescription(/Activities not done yet: 4 of 5/);
  await expectAccessible(page);
  await confirm.getByRole(jsEnabled ? "button" : "link", { name: "Cancel" }).click();
  // Without JavaScript, Cancel opens the course's page again, on its next activity: a text, done by opening it.
  if (!jsEnabled) {
    confirm = await confirmation();
    await expect(confirm.getByText("Activities not done yet: 3 of 5")).toBeVisible();
    return;
  }

  await finishActivities(page, 2);
  confirm = await confirmation();
  await expect(confirm.getByText("Activities not done yet: 2 of 5")).toBeVisible();
  await expect(confirm.getByRole("listitem")).toHaveText(["Rebase or merge?", "Lab: resolve a merge conflict"]);
});
