import { test, expect, login, expectAccessible } from "./fixtures";

/**
 * Spec 2.11 product feedback (issue 16 item 7): the shell's "Give feedback" opens the form — a dialog
 * with JavaScript, a page without; the grade is required; sent, the learner is back where they were
 * with a thank-you toast.
 */
test("a learner sends product feedback from any page and comes back to it, thanked", async ({
  page,
  learner,
  jsEnabled,
}) => {
  await login(page, learner, "/learn/courses");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const trigger = page.getByRole("link", { name: "Give feedback" });
  // With JavaScript, the click opens the dialog once React has hydrated the link (before, it is a link).
  if (jsEnabled)
    await page.waitForFunction(() => {
      const el = document.querySelector(".feedback-trigger");
      return !!el && Object.keys(el).some((k) => k.startsWith("__reactProps"));
    });
  await trigger.click();
  const form = jsEnabled ? page.getByRole("dialog", { name: "Product feedback" }) : page.locator("main");
  if (!jsEnabled) await expect(page).toHaveURL(/\/learn\/feedback\?returnTo=%2Flearn%2Fcourses/);
  await expect(form.getByRole("group", { name: "How do you rate the portal?" })).toBeVisible();
  await expectAccessible(page);

  // Without a grade: 'Field is required'.
  await form.getByLabel("Comment").fill("The menus are clear.");
  await form.getByRole("button", { name: "Send feedback" }).click();
  await expect(form.getByText("Field is required")).toBeVisible();

  await form.getByLabel("4 of 5").check();
  await form.getByLabel("Navigating the portal").check();
  await form.getByLabel("Something else").check();
  await form.getByRole("button", { name: "Send feedback" }).click();
  await expect(page.getByText("Thank you for your feedback.")).toBeVisible();
  await expect(page).toHaveURL(/\/learn\/courses$/);
  await expect(page.getByRole("dialog")).toHaveCount(0);
});
