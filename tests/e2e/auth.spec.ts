import { test, expect, login, DEMO, expectAccessible, expectNoReact } from "./fixtures";

/**
 * Signing in and out with the demo accounts of the README (they only sign in here: no test changes
 * their data), and signing up.
 */

test.describe("sign-in and sign-out", () => {
  test("ada signs in through the provider, lands in the learner area and signs out", async ({ page, jsEnabled }) => {
    await login(page, "ada");
    await expect(page).toHaveURL(/\/learn\//);
    const account = page.locator("details.user-menu summary");
    await expect(account).toContainText(DEMO.ada.name);
    if (!jsEnabled) await expectNoReact(page);

    // The session cookie is httpOnly, SameSite=Lax and small (spec 8, ARCHITECTURE.md).
    const cookie = (await page.context().cookies()).find((c) => c.name === "learn_session");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    expect((cookie?.value.length ?? 0) + "learn_session".length).toBeLessThan(4096);

    await account.click();
    await page.getByRole("button", { name: "Sign out" }).click();
    if (!jsEnabled) {
      // Without JavaScript the provider asks to confirm ending its own session.
      await expect(page.getByRole("heading", { name: /sign out/i })).toBeVisible();
      await page.getByRole("button", { name: "Sign out" }).click();
    }
    // Signed out of the app and the provider: the learner area asks for the password again.
    await expect(page.getByRole("heading", { name: /sign in/i })).toBeVisible();
    await expect(page.getByLabel(/password/i)).toBeVisible();
    expect((await page.context().cookies()).find((c) => c.name === "learn_session")).toBeUndefined();
  });

  test("a wrong password is refused with a message, and repeated failures get 429", async ({ page }) => {
    await page.goto("/learn");
    const email = `nobody-${test.info().project.name}-${Date.now()}@example.com`;
    for (let i = 0; i < 5; i++) {
      await page.getByLabel(/e-mail/i).fill(email);
      await page.getByLabel(/password/i).fill("wrong");
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST"),
        page.getByRole("button", { name: /sign in/i }).click(),
      ]);
      expect(response.status()).toBe(401);
      await expect(page.getByRole("alert")).toHaveText(/incorrect/i);
    }
    await page.getByLabel(/e-mail/i).fill(email);
    await page.getByLabel(/password/i).fill("wrong");
    const [blocked] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: /sign in/i }).click(),
    ]);
    expect(blocked.status()).toBe(429);
    await expect(page.getByRole("alert")).toHaveText(/too many/i);
  });

  test("the sign-in page is accessible", async ({ page }) => {
    await page.goto("/learn");
    await expect(page.getByRole("heading", { name: /sign in/i })).toBeVisible();
    await expectAccessible(page);
  });

  test("rita, with only a research licence, is sent to the platform app", async ({ page }) => {
    await login(page, "rita");
    await expect(page).toHaveURL(/\/platform$/);
    await expect(page.getByRole("heading", { name: "Research platform" })).toBeVisible();
  });

  test("an open redirect after sign-in goes to the app root instead", async ({ page, learner }) => {
    await login(page, learner, "/oidc/login?redirectUrl=https%3A%2F%2Fevil.example%2Fphish");
    await expect(page).toHaveURL(/localhost:\d+\/learn/);
  });
});

test.describe("sign-up from the public catalog", () => {
  test("a visitor creates an account and lands on My courses with the 'account created' message", async ({ page }) => {
    await page.goto("/learn/open-catalog");
    await page.getByRole("link", { name: "Sign up" }).first().click();
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    // Invalid input is refused with messages under the fields, keeping what was typed.
    await page.getByLabel("First name").fill("Nia");
    await page.getByLabel("Last name").fill("Okafor");
    await page.getByLabel("E-mail").fill("not-an-email");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("Enter a valid e-mail address.")).toBeVisible();
    await expect(page.getByText("The password must have at least 8 characters.")).toBeVisible();
    await expect(page.getByLabel("First name")).toHaveValue("Nia");
    await page.getByLabel("E-mail").fill(`nia-${test.info().project.name}-${Date.now()}@example.com`);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/learn\/courses(\?|$)/);
    expect(page.url()).not.toContain("selfRegistered");
    await expect(page.getByText("Your account has been created. Welcome!")).toBeVisible();
    await expect(page.locator("details.user-menu summary")).toContainText("Nia Okafor");
  });
});
