import { test, expect, login, expectAccessible, chooseLanguage, mailTo } from "./fixtures";
import { expectPhoneReady } from "./phone";

/**
 * Issue 31 item 2: e-mail preferences in the profile, and the one-click unsubscribe an e-mail carries —
 * a visible link that works without signing in, and RFC 8058's POST. JavaScript on and off.
 */
test.use({
  learnerRecipe: {
    enrolments: [
      // Due in six hours: the learner mail job's due-date reminder.
      { course: "info-security", assigned: { mandatory: true, dueIn: 0.25 } },
      { course: "anti-bribery", assigned: { mandatory: true, dueIn: 0.5 } },
    ],
  },
});

test("the learner chooses which e-mails come, and when", async ({ page, learner }) => {
  await login(page, learner, "/learn/profile");
  await page.getByRole("navigation", { name: "Profile sections" }).getByRole("link", { name: "E-mail" }).click();
  await expect(page).toHaveURL(/\/learn\/profile\/email$/);
  await expect(page.getByRole("heading", { name: "E-mail preferences" })).toBeVisible();
  for (const name of ["Reinforcement questions", "Due-date reminders", "Course announcements"])
    await expect(page.getByRole("checkbox", { name })).toBeChecked();
  await expect(page.getByRole("radio", { name: "As soon as there is something" })).toBeChecked();
  await page.getByRole("checkbox", { name: "Course announcements" }).uncheck();
  await page.getByRole("radio", { name: "In one daily digest" }).check();
  await page.getByRole("button", { name: "Save preferences" }).click();
  await expect(page.getByText("Your e-mail preferences are saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "Course announcements" })).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Due-date reminders" })).toBeChecked();
  await expect(page.getByRole("radio", { name: "In one daily digest" })).toBeChecked();
  await expectAccessible(page);
  await expectPhoneReady(page);
});

test("an e-mail's unsubscribe link works without signing in and stops that kind", async ({
  page,
  learner,
  request,
  browser,
}) => {
  // The due-date reminder, sent now by the jobs the server runs every minute.
  expect((await request.post("/api/test-support/v1/learner-mail")).status()).toBe(200);
  const mail = await mailTo(request, learner.email, "dueReminder");
  expect(mail.text).toContain("Information Security Awareness 2026");
  const link = /(http:\/\/\S+\/learn\/unsubscribe\?u=[^&\s]+&k=dueReminders&t=[A-Za-z0-9_-]{22})/.exec(mail.text)?.[1];
  expect(link, "the visible unsubscribe link").toBeTruthy();
  // A fresh browser: no session, no cookie.
  const context = await browser.newContext({ javaScriptEnabled: test.info().project.use.javaScriptEnabled });
  const visitor = await context.newPage();
  await visitor.goto(link!);
  await expect(visitor.getByRole("heading", { name: "Unsubscribe" })).toBeVisible();
  await expect(visitor.getByText(/^Stop sending due-date reminders to /)).toBeVisible();
  await expectAccessible(visitor);
  await visitor.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(visitor.getByRole("status").filter({ hasText: "will no longer get due-date reminders" })).toBeVisible();
  // A click by mistake is undone on the same page; then she unsubscribes for good.
  await visitor.getByRole("button", { name: "Undo: subscribe again" }).click();
  await expect(visitor.getByRole("status").filter({ hasText: "gets due-date reminders again" })).toBeVisible();
  await visitor.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(visitor.getByRole("status").filter({ hasText: "will no longer get due-date reminders" })).toBeVisible();
  await context.close();
  // A tampered link: not found.
  const bad = await request.get(link!.replace(/t=[A-Za-z0-9_-]{22}/, `t=${"A".repeat(22)}`));
  expect(bad.status()).toBe(404);
  // Signed in, the preference reads "off".
  await login(page, learner, "/learn/profile/email");
  await expect(page.getByRole("checkbox", { name: "Due-date reminders" })).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Course announcements" })).toBeChecked();
});

test("RFC 8058: a mail client's one-click POST to the List-Unsubscribe address", async ({ learner, request }) => {
  expect((await request.post("/api/test-support/v1/learner-mail")).status()).toBe(200);
  const mail = await mailTo(request, learner.email, "dueReminder");
  const link = /(http:\/\/\S+\/learn\/unsubscribe\?\S+)/.exec(mail.text)![1];
  // As a mail provider sends it: no cookie, no Origin, the body RFC 8058 names.
  const res = await request.fetch(link, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    data: "List-Unsubscribe=One-Click",
  });
  expect(res.status()).toBe(200);
  const again = await request.get(link);
  expect(again.status()).toBe(200);
  expect(await again.text()).toContain("will no longer get due-date reminders");
});

test("the unsubscribe page in Arabic: right to left", async ({ page, learner, request, baseURL }) => {
  await request.post("/api/test-support/v1/learner-mail");
  const mail = await mailTo(request, learner.email, "dueReminder");
  const link = /(http:\/\/\S+\/learn\/unsubscribe\?\S+)/.exec(mail.text)![1];
  await chooseLanguage(page, baseURL!, "ar");
  await page.goto(link);
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expectAccessible(page);
  await expectPhoneReady(page);
});
