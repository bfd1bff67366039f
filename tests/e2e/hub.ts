import type { Page } from "@playwright/test";
import { expect, login, type Learner } from "./fixtures";

/** Signs in and opens the Notifications layer of the onboarding course ("Welcome to Northwind"). */
export async function openHub(page: Page, who: Learner) {
  await login(page, who, "/learn/courses");
  await page
    .locator(".card-grid > li.course-card")
    .filter({ has: page.getByRole("heading", { name: "Welcome to Northwind", exact: true }) })
    .getByRole("link")
    .first()
    .click();
  await page.getByRole("link", { name: "Notifications" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
}
