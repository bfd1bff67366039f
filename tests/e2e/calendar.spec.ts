import { test, expect, login, expectAccessible, expectNoReact } from "./fixtures";

/** Issue 13: the calendar's month, week and agenda views, its items, and the personal feed. */

test.use({ learnerRecipe: { like: "ada" } });

const MONTH = /\/learn\/calendar\/month\/(\d{4})-(\d{2})$/;

test("the month view: a grid of the current month with today marked, and previous/next/today", async ({
  page,
  learner,
  jsEnabled,
}) => {
  await login(page, learner, "/learn/calendar");
  await expect(page.getByRole("heading", { level: 1, name: "Calendar" })).toBeVisible();
  await expect(page).toHaveURL(MONTH);
  if (!jsEnabled) await expectNoReact(page);
  const [, year, month] = MONTH.exec(new URL(page.url()).pathname)!;
  const table = page.locator("table.month-grid");
  await expect(table).toBeVisible();
  // A keyboard grid with JavaScript, a plain table without.
  if (jsEnabled) await expect(table).toHaveAttribute("role", "grid");
  else expect(await table.getAttribute("role")).toBeNull();
  await expect(page.locator('td[aria-current="date"]')).toHaveCount(1);
  await expect(page.getByText(/Times are shown in /)).toBeVisible();

  await page.getByRole("link", { name: "Next" }).click();
  const next = new Date(Date.UTC(Number(year), Number(month), 1));
  await expect(page).toHaveURL(
    new RegExp(`/month/${next.getUTCFullYear()}-${String(next.getUTCMonth() + 1).padStart(2, "0")}$`),
  );
  await page.getByRole("link", { name: "Today" }).click();
  await expect(page).toHaveURL(new RegExp(`/month/${year}-${month}$`));
  await page.getByRole("link", { name: "Previous" }).click();
  const prev = new Date(Date.UTC(Number(year), Number(month) - 2, 1));
  await expect(page).toHaveURL(
    new RegExp(`/month/${prev.getUTCFullYear()}-${String(prev.getUTCMonth() + 1).padStart(2, "0")}$`),
  );
  await expectAccessible(page);
});

test("the week view has its own URL and heading, and moves by week", async ({ page, learner }) => {
  await login(page, learner, "/learn/calendar");
  await page.getByRole("navigation", { name: "View" }).getByRole("link", { name: "Week" }).click();
  await expect(page).toHaveURL(/\/learn\/calendar\/week\/\d{4}-W\d{2}$/);
  const [, year, week] = /week\/(\d{4})-W(\d{2})$/.exec(page.url())!;
  await expect(
    page.getByRole("heading", { level: 2, name: new RegExp(`^Week ${Number(week)}, ${year}`) }),
  ).toBeVisible();
  // Seven days, each a titled section.
  await expect(page.locator("section.day")).toHaveCount(7);
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page).not.toHaveURL(new RegExp(`week/${year}-W${week}$`));
  await expect(page).toHaveURL(/\/week\/\d{4}-W\d{2}$/);
  await expectAccessible(page);
});

test("the agenda lists what is coming: all-day due dates, events with their join link, locked items with the reason", async ({
  page,
  learner,
}) => {
  await login(page, learner, "/learn/calendar/agenda");
  await expect(page).toHaveURL(/\/learn\/calendar\/agenda$/);
  await expect(page.getByRole("heading", { level: 2, name: /^Agenda/ })).toBeVisible();
  // The "now" marker sits among today's items.
  await expect(page.locator("section.day--today .now-marker")).toHaveCount(1);

  const infoSecurity = page.locator(".cal-item").filter({ hasText: "Information Security Awareness 2026" });
  await expect(infoSecurity.first()).toContainText("All day");
  await expect(infoSecurity.first()).toContainText("Course due");

  const live = page.locator(".cal-item").filter({ hasText: "Live Q&A with the instructors" }).first();
  await expect(live).toContainText("Event");
  await expect(live.getByRole("link", { name: /Join online/ })).toHaveAttribute(
    "href",
    "https://meet.example/py-101-qa",
  );

  // Spec 4.12: module 7 opens in a week; its items say so.
  const locked = page.locator(".cal-item").filter({ hasText: "Module 7: Final project" }).first();
  await expect(locked).toContainText(/Locked: Available from /);
  await expectAccessible(page);

  // An item opens its activity.
  await live.getByRole("link", { name: /^\d{1,2}:\d{2}\s[AP]M Event: Live Q&A with the instructors/ }).click();
  await expect(page).toHaveURL(/\/view\/content\?activityPathId=[0-9a-f-]{36}/);
  await expect(page.getByRole("heading", { name: "Live Q&A with the instructors" }).first()).toBeVisible();
});

test("bad calendar addresses are not found", async ({ page, learner }) => {
  await login(page, learner, "/learn/calendar");
  for (const path of ["/learn/calendar/month/2026-13", "/learn/calendar/week/2026-W60", "/learn/calendar/year/2026"]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
  }
  // A garbled agenda start falls back to today.
  await page.goto("/learn/calendar/agenda?from=yesterday");
  await expect(page).toHaveURL(/\/agenda\?from=\d{4}-\d{2}-\d{2}$/);
});

test("the month grid moves by keyboard (ARIA grid pattern); without JavaScript it is a table of links", async ({
  page,
  learner,
  jsEnabled,
}) => {
  await login(page, learner, "/learn/calendar");
  const today = page.locator('td[aria-current="date"]');
  if (!jsEnabled) {
    // No roving focus to promise: the cells are plain cells, their items and weeks plain links.
    expect(await today.getAttribute("tabindex")).toBeNull();
    await expect(page.locator("table.month-grid th[scope=row] a").first()).toHaveAttribute("href", /\/week\//);
    return;
  }
  await expect(today).toHaveAttribute("tabindex", "0");
  await today.focus();
  const date = await today.getAttribute("data-date");
  await page.keyboard.press("ArrowDown");
  const focused = await page.evaluate(() => (document.activeElement as HTMLElement).dataset.date);
  const expected = new Date(`${date}T00:00:00Z`);
  expected.setUTCDate(expected.getUTCDate() + 7);
  expect(focused).toBe(expected.toISOString().slice(0, 10));
  await page.keyboard.press("ArrowUp");
  expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.date)).toBe(date);
  const url = page.url();
  await page.keyboard.press("PageDown");
  await expect(page).not.toHaveURL(url);
  await expect(page).toHaveURL(MONTH);
});

test("the personal calendar feed: a private link that downloads a calendar, and a new link revokes the old", async ({
  page,
  learner,
  request,
}) => {
  await login(page, learner, "/learn/calendar");
  await page.getByRole("button", { name: "Create my calendar link" }).click();
  await expect(page.getByText("Your calendar link is ready.")).toBeVisible();
  const field = page.getByLabel("Your private calendar link");
  const url = await field.inputValue();
  expect(url).toMatch(/^http:\/\/localhost:\d+\/api\/lms\/v1\/public\/calendar-feeds\/[A-Za-z0-9_-]{43}\.ics$/);

  // Downloaded without any cookie: a calendar.
  const feed = await request.get(url, { headers: { Cookie: "" } });
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
  const body = await feed.text();
  expect(body).toContain("BEGIN:VCALENDAR");
  expect(body).toContain("Live Q&A with the instructors");
  expect(body).toMatch(/BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-P1D/);

  await page.getByRole("button", { name: "Make a new link" }).click();
  await expect(page.getByText("Your calendar link is ready.")).toBeVisible();
  await expect(field).not.toHaveValue(url);
  expect((await request.get(url)).status()).toBe(404);
  expect((await request.get(await field.inputValue())).status()).toBe(200);
  await expectAccessible(page);
});

test("in Arabic the calendar is right-to-left and translated", async ({ page, learner }) => {
  await login(page, learner, "/learn/calendar");
  await page.locator("details.language-menu summary").click();
  await page.getByRole("button", { name: "العربية" }).click();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("التقويم");
  // The week starts on the locale's first day (Saturday for ar).
  await expect(page.locator("table.month-grid thead th abbr").first()).toHaveAttribute("title", "السبت");
  await expectAccessible(page);
});
