import { test, expect, login, expectAccessible } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * Issue 26 (journeys, the certificate): after a pass the certificate is the obvious next step on the
 * course page, the holder's certificate page offers "Add to LinkedIn profile" (LinkedIn's Add to Profile
 * link, filled in) — the public page does not: its visitors are not the holder — and a shared link to the
 * public page shows a preview card (Open Graph, Twitter).
 * A learner like ada: SQL Fundamentals passed three weeks ago, with a valid certificate.
 */
test.use({ learnerRecipe: { like: "ada" } });
const COURSE = "SQL Fundamentals";
const NUMBER = /LA(-[0-9A-HJKMNP-TV-Z]{4}){4}/;

async function openCourse(page: Page) {
  await page.goto(`/learn/courses?keyword=sql`);
  await page
    .locator(".card-grid > li.course-card")
    .filter({ has: page.getByRole("heading", { name: COURSE, exact: true }) })
    .getByRole("link")
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: COURSE })).toBeVisible();
}

test("after a pass, the certificate is the course page's next step and 'Start again' steps back", async ({
  page,
  learner,
}) => {
  await login(page, learner);
  await openCourse(page);
  const next = page.getByRole("region", { name: "Your certificate is ready" });
  await expect(next).toBeVisible();
  const view = next.getByRole("link", { name: "View your certificate" });
  await expect(view).toHaveClass(/button--primary/);
  // Nothing else on the page is the primary action.
  await expect(page.getByRole("button", { name: "Start again" })).not.toHaveClass(/button--primary/);
  await expect(page.locator(".button--primary")).toHaveCount(1);
  await expectAccessible(page);
  await view.click();
  await expect(page).toHaveURL(/\/certificate\/LA-/);
  await expect(page.getByRole("status").filter({ hasText: "Valid certificate" })).toBeVisible();
});

test(
  "'Add to LinkedIn profile' opens LinkedIn's form filled in; the public page has a preview card",
  { tag: "@js-only" },
  async ({ page, learner, request }) => {
    await login(page, learner);
    await openCourse(page);
    await page.getByRole("link", { name: "View your certificate" }).click();
    await expect(page).toHaveURL(/\/certificate\/LA-/);
    const number = NUMBER.exec(page.url())![0];
    const publicUrl = new URL(`/learn/certificate/${number}`, page.url()).href;

    const linkedIn = page.getByRole("link", { name: "Add to LinkedIn profile" });
    await expect(linkedIn).toHaveAttribute("target", "_blank");
    const url = new URL((await linkedIn.getAttribute("href"))!);
    expect(url.origin + url.pathname).toBe("https://www.linkedin.com/profile/add");
    expect(url.searchParams.get("startTask")).toBe("CERTIFICATION_NAME");
    expect(url.searchParams.get("name")).toBe(await page.getByRole("heading", { level: 1 }).textContent());
    expect(url.searchParams.get("organizationName")).toBe("Learning Portal");
    expect(url.searchParams.get("certId")).toBe(number);
    expect(url.searchParams.get("certUrl")).toBe(publicUrl);
    expect(Number(url.searchParams.get("issueYear"))).toBeGreaterThan(2000);
    expect(Number(url.searchParams.get("issueMonth"))).toBeGreaterThanOrEqual(1);

    // The public page, as a visitor (or a chat app's link preview) reads it.
    await page.context().clearCookies();
    await page.goto(publicUrl);
    const meta = async (attr: "property" | "name", key: string) =>
      page.locator(`head meta[${attr}="${key}"]`).getAttribute("content");
    const image = await meta("property", "og:image");
    expect(image).toBe(`${publicUrl}/download/png`);
    expect(await meta("property", "og:url")).toBe(publicUrl);
    expect(await meta("property", "og:type")).toBe("website");
    expect(await meta("property", "og:title")).toContain(learner.name);
    expect(await meta("property", "og:description")).toBe(
      `${learner.name} was awarded this certificate for the course ${COURSE}.`,
    );
    expect(await meta("property", "og:image:width")).toBe("1684");
    expect(await meta("name", "twitter:card")).toBe("summary_large_image");
    expect(await meta("name", "twitter:image")).toBe(image);
    // The image the card shows is there for anyone, without a cookie.
    const png = await request.get(image!, { headers: { Cookie: "" } });
    expect(png.status()).toBe(200);
    expect(png.headers()["content-type"]).toBe("image/png");
    await expect(page.getByRole("link", { name: "Add to LinkedIn profile" })).toHaveCount(0);
    await expectAccessible(page);
  },
);
