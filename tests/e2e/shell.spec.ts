import { test, expect, login, expectAccessible } from "./fixtures";

/** The shell as a learner of each test's own, without courses (decision 014). */

test.describe("shell, errors and security", () => {
  test("unknown paths render the not-found page with HTTP 404", { tag: "@js-only" }, async ({ page }) => {
    for (const path of ["/learn/this/does/not/exist", "/nothing-here"]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    }
  });

  test("/learn/forbidden is a 403 page with no primary button", { tag: "@js-only" }, async ({ page, learner }) => {
    await login(page, learner);
    await expect(page.locator("details.user-menu")).toBeVisible();
    const response = await page.goto("/learn/forbidden");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Forbidden");
    await expect(page.locator("main .button--primary")).toHaveCount(0);
  });

  test(
    "/learn/simulate-error shows the 500 page without a stack trace outside dev",
    { tag: "@js-only" },
    async ({ page, learner, consoleErrors }) => {
      await login(page, learner);
      await expect(page.locator("details.user-menu")).toBeVisible();
      const response = await page.goto("/learn/simulate-error");
      expect(response?.status()).toBe(500);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Something went wrong");
      await expect(page.getByText("Simulated error")).toHaveCount(0);
      // Learner-only users are offered their courses.
      await expect(page.getByRole("link", { name: "Go to My courses" })).toBeVisible();
      consoleErrors.length = 0;
    },
  );

  test("the shell is accessible and its menus work by keyboard", async ({ page, learner }) => {
    await login(page, learner);
    const response = await page.goto("/learn/forbidden");
    expect(response?.status()).toBe(403);
    await expectAccessible(page);
    const nav = page.getByRole("navigation", { name: "Main navigation" }).last();
    await expect(nav.getByRole("link", { name: "Courses" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Catalog" })).toBeVisible();
    await page.locator("details.language-menu summary").focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("button", { name: "Deutsch" })).toBeVisible();
  });

  test("Arabic renders right-to-left and translated", async ({ page, learner }) => {
    await login(page, learner);
    await page.goto("/learn/forbidden");
    await page.locator("details.language-menu summary").click();
    await page.getByRole("button", { name: "العربية" }).click();
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Forbidden");
    const sidebar = page.locator("nav.sidebar");
    const box = await sidebar.boundingBox();
    const width = page.viewportSize()!.width;
    // The sidebar sits on the right in a right-to-left layout.
    expect(box!.x).toBeGreaterThan(width / 2);
    await expectAccessible(page);
  });

  test("a cross-origin POST is refused with 403 and changes nothing", async ({ request }) => {
    const response = await request.post("/learn/language", {
      form: { lng: "de", returnTo: "/learn" },
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
    expect(response.headers()["set-cookie"] ?? "").not.toContain("lng=");
  });

  test("public runtime config and security headers", { tag: "@js-only" }, async ({ request }) => {
    const config = await request.get("/config-ui/config.json");
    expect(config.status()).toBe(200);
    const body = await config.json();
    expect(body.environment).toBe("test");
    expect(body.supportedLocales).toHaveLength(36);
    const page = await request.get("/learn/forbidden");
    const csp = page.headers()["content-security-policy"];
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'/);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(page.headers()["x-content-type-options"]).toBe("nosniff");
    expect(page.headers()["referrer-policy"]).toBeTruthy();
  });
});
