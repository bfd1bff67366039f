import { test, expect, login, openSignedIn, DEMO, expectAccessible, expectNoReact, mailTo } from "./fixtures";

/**
 * Signing in and out (issue 17, items 2–5 and 11; issue 11, items 4–5; decision 017): with the
 * demo accounts of the README (they only sign in here: no test changes their data) and with each
 * test's own learner.
 */

const signInHeading = (page: import("@playwright/test").Page) => page.getByRole("heading", { name: /sign in/i });
/** Where signing out ends. */
const signedOutHeading = (page: import("@playwright/test").Page) =>
  page.getByRole("heading", { level: 1, name: "You are signed out" });

test.describe("sign-in and sign-out", () => {
  test("one click on Sign out ends the app's and the provider's sessions; the old cookie is dead", async ({
    page,
    learner,
    jsEnabled,
  }) => {
    await openSignedIn(page, learner);
    await expect(page).toHaveURL(/\/learn(\/|$)/);
    const account = page.locator("details.user-menu summary");
    await expect(account).toContainText(learner.name);
    if (!jsEnabled) await expectNoReact(page);

    // The session cookie is httpOnly, SameSite=Lax and carries only an id (the tokens stay on the server).
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === "learn_session");
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("Lax");
    expect(session?.value.length ?? 0).toBeLessThan(200);

    await account.click();
    await page.getByRole("button", { name: "Sign out" }).click();
    // No second question from the provider: "You are signed out", the open catalog a click away.
    await expect(page).toHaveURL(/\/learn\/signed-out$/);
    await expect(signedOutHeading(page)).toBeVisible();
    expect((await page.context().cookies()).find((c) => c.name === "learn_session")).toBeUndefined();
    await expectAccessible(page);
    await page.getByRole("link", { name: "Browse the open catalog" }).click();
    await expect(page).toHaveURL(/\/learn\/open-catalog$/);
    await expect(page.getByRole("heading", { level: 1, name: "Catalog" })).toBeVisible();

    // Opening the app again asks for the password (the provider's session ended too).
    await page.goto("/learn/courses");
    await expect(signInHeading(page)).toBeVisible();

    // A copy of the old cookie is refused: the session row is revoked.
    await page.context().addCookies(cookies);
    await page.goto("/learn/courses");
    await expect(signInHeading(page)).toBeVisible();
  });

  test("a GET of /oidc/logout (a link on another site) signs nobody out: it offers the button", async ({
    page,
    learner,
  }) => {
    await openSignedIn(page, learner);
    await expect(page).toHaveURL(/\/learn(\/|$)/);
    await page.goto("/oidc/logout");
    await expect(page.getByRole("heading", { name: "Sign out" })).toBeVisible();
    await expectAccessible(page);
    await page.goto("/learn/courses");
    await expect(page.locator("details.user-menu summary")).toContainText(learner.name);
    await page.goto("/oidc/logout");
    await page.getByRole("main").getByRole("button", { name: "Sign out" }).click();
    await expect(signedOutHeading(page)).toBeVisible();
    await page.getByRole("link", { name: "Sign in again" }).click();
    await expect(signInHeading(page)).toBeVisible();
  });

  test("signing out in one tab ends the session in the other tab at the logout endpoint (spec 4.15)", async ({
    page,
    learner,
    jsEnabled,
  }) => {
    await openSignedIn(page, learner);
    await expect(page).toHaveURL(/\/learn(\/|$)/);
    const other = await page.context().newPage();
    await other.goto("/learn/courses");
    await expect(other.locator("details.user-menu summary")).toContainText(learner.name);
    const logoutPost = jsEnabled
      ? other.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/oidc/logout"))
      : null;
    await page.locator("details.user-menu summary").click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(signedOutHeading(page)).toBeVisible();
    // With JavaScript the storage flag sends the other tab to the logout endpoint at once; without
    // it the other tab finds out on its next request (its session row is revoked).
    if (logoutPost) await logoutPost;
    else await other.reload();
    await expect(signInHeading(other).or(signedOutHeading(other))).toBeVisible();
  });

  test("a learner's first sign-in is not greeted as a registration", { tag: "@js-only" }, async ({ page, learner }) => {
    await login(page, learner);
    await expect(page).toHaveURL(/\/learn(\/|$)/);
    await expect(page.locator("details.user-menu summary")).toContainText(learner.name);
    expect(page.url()).not.toContain("selfRegistered");
    await expect(page.getByText("Your account has been created. Welcome!")).toHaveCount(0);
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

  test("the sign-in page is accessible", { tag: "@js-only" }, async ({ page }) => {
    await page.goto("/learn");
    await expect(signInHeading(page)).toBeVisible();
    await expectAccessible(page);
  });

  test("rita, with only a research licence, is sent to the platform app", { tag: "@js-only" }, async ({ page }) => {
    await login(page, "rita");
    await expect(page).toHaveURL(/\/platform$/);
    await expect(page.getByRole("heading", { name: "Research platform" })).toBeVisible();
  });

  test(
    "an open redirect after sign-in goes to the app root instead",
    { tag: "@js-only" },
    async ({ page, learner }) => {
      await login(page, learner, "/oidc/login?redirectUrl=https%3A%2F%2Fevil.example%2Fphish");
      await expect(page).toHaveURL(/localhost:\d+\/learn/);
    },
  );
});

test.describe("sign-in state", () => {
  test(
    "100 sign-in starts leave one small state cookie, and signing in still works (no 431)",
    { tag: "@js-only" },
    async ({ page, learner }) => {
      for (let i = 0; i < 100; i++) {
        const res = await page.request.get("/oidc/login?redirectUrl=%2Flearn%2Fcourses", { maxRedirects: 0 });
        expect(res.status()).toBe(302);
      }
      const cookies = await page.context().cookies();
      const header = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
      expect(cookies.filter((c) => c.name.startsWith("learn_oauth2"))).toEqual([]);
      expect(header.length).toBeLessThan(2048);
      await login(page, learner);
      await expect(page).toHaveURL(/\/learn(\/|$)/);
      await expect(page.locator("details.user-menu summary")).toContainText(learner.name);
      // The state of the sign-in that finished is gone; at most two older ones remain, still small.
      const after = await page.context().cookies();
      expect(after.map((c) => `${c.name}=${c.value}`).join("; ").length).toBeLessThan(2048);
    },
  );

  test("the sign-in request carries a nonce", { tag: "@js-only" }, async ({ page }) => {
    const res = await page.request.get("/oidc/login", { maxRedirects: 0 });
    const location = new URL(res.headers().location);
    expect(location.searchParams.get("nonce")).toMatch(/^[\w-]{32,}$/);
    expect(location.searchParams.get("code_challenge_method")).toBe("S256");
  });

  test("a page opened on 127.0.0.1 moves to APP_URL's host first, so signing in works there", async ({
    page,
    learner,
  }) => {
    const port = new URL(test.info().project.use.baseURL ?? "http://localhost:3210").port;
    await page.goto(`http://127.0.0.1:${port}/learn/courses?keyword=sql`);
    await expect(page).toHaveURL(new RegExp(`^http://localhost:${port}/idp/interaction/`));
    await page.getByLabel(/e-mail/i).fill(learner.email);
    await page.getByLabel(/password/i).fill(learner.password);
    await page.getByRole("button", { name: /sign in/i }).click();
    await expect(page).toHaveURL(new RegExp(`^http://localhost:${port}/learn/courses\\?keyword=sql`));
    await expect(page.locator("details.user-menu summary")).toContainText(learner.name);
  });

  test("a cancelled or failed sign-in shows the 401 page in the user's language, with a way to try again", async ({
    page,
    learner,
  }) => {
    const cancelled = await page.goto("/learn/login-callback?error=access_denied&state=abc");
    expect(cancelled?.status()).toBe(401);
    await expect(page.getByRole("heading", { name: "Unauthorized access" })).toBeVisible();
    await expect(page.getByText("Sign-in was cancelled.")).toBeVisible();
    await expectAccessible(page);

    // A code with a state nobody started (a forged or replayed return) is refused the same way.
    // In German (the language menu's own request).
    await page.request.post("/learn/language", { form: { lng: "de", returnTo: "/learn/open-catalog" } });
    const forged = await page.goto("/learn/login-callback?code=forged&state=nobody-started-this");
    expect(forged?.status()).toBe(401);
    await expect(page.getByText("Die Anmeldung konnte nicht abgeschlossen werden.")).toBeVisible();
    await page.getByRole("link", { name: "Erneut anmelden" }).click();
    await page.getByLabel(/e-mail/i).fill(learner.email);
    await page.getByLabel(/passwort/i).fill(learner.password);
    await page.getByRole("button", { name: /anmelden/i }).click();
    await expect(page.locator("details.user-menu summary")).toContainText(learner.name);
  });
});

test.describe("sign-up and password reset by e-mailed link (issue 26, decision 036)", () => {
  const fillSignUp = async (page: import("@playwright/test").Page, email: string) => {
    await page.getByLabel("First name").fill("Nia");
    await page.getByLabel("Last name").fill("Okafor");
    await page.getByLabel("E-mail").fill(email);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/signup")),
      page.getByRole("button", { name: "Create account" }).click(),
    ]);
    return response.status();
  };

  test("a visitor signs up, opens the e-mailed link and is signed in, greeted once", async ({ page, request }) => {
    await page.goto("/learn/open-catalog");
    await page.getByRole("link", { name: "Sign up" }).first().click();
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    // Invalid input is refused with messages under the fields, keeping what was typed.
    await page.getByLabel("First name").fill("Nia");
    await page.getByLabel("Last name").fill("Okafor");
    await page.getByLabel("E-mail").fill("not-an-email");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("Enter a valid e-mail address.")).toBeVisible();
    // No password on this form: it is chosen on the e-mailed link's page (decision 050).
    await expect(page.getByLabel("Password")).toHaveCount(0);
    await expect(page.getByLabel("First name")).toHaveValue("Nia");
    const email = `nia-${test.info().project.name}-${Date.now()}@example.com`;
    expect(await fillSignUp(page, email)).toBe(200);
    // Nothing is made yet: the answer is "check your e-mail", as it is for a known address.
    await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
    await expect(page.getByRole("status")).toHaveText(
      `We have sent a message to ${email}. Open the link in it to finish signing up: you will be signed in. The link works for 24 hours.`,
    );
    await expectAccessible(page);

    const mail = await mailTo(request, email, "signup");
    expect(mail.subject).toBe("Finish signing up to the Learning Portal");
    const link = /https?:\/\/\S+\/oidc\/login\?confirm=[\w-]{43}/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();
    // The link opens a page with one button (a link checker's GET makes nothing), then the learner is in.
    await page.goto(link!);
    await expect(page.getByRole("heading", { name: "Finish signing up" })).toBeVisible();
    await expect(page.getByText(`Confirm ${email} as your e-mail address and sign in.`)).toBeVisible();
    // The password is chosen here, by whoever holds the mailbox; a short one is refused in place.
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Confirm and sign in" }).click();
    await expect(page.getByText("The password must have at least 8 characters.")).toBeVisible();
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Confirm and sign in" }).click();
    await expect(page).toHaveURL(/\/learn\/courses(\?|$)/);
    expect(page.url()).not.toContain("selfRegistered");
    await expect(page.getByText("Your account has been created. Welcome!")).toBeVisible();
    await expect(page.locator("details.user-menu summary")).toContainText("Nia Okafor");

    // The link works once.
    await page.context().clearCookies();
    await page.goto(link!);
    await expect(page.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
  });

  test("signing up with an address that has an account answers exactly like a new one", async ({
    page,
    learner,
    request,
  }) => {
    const answer = async (email: string) => {
      await page.goto("/oidc/login?provider=signup");
      expect(await fillSignUp(page, email)).toBe(200);
      await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
      return (await page.locator("main").innerText()).replace(email, "<address>");
    };
    const fresh = `fresh-${test.info().project.name}-${Date.now()}@example.com`;
    expect(await answer(learner.email)).toBe(await answer(fresh));
    // The address's owner is told by e-mail instead; no account was touched, no link to make one.
    const mail = await mailTo(request, learner.email, "signupExisting");
    expect(mail.subject).toBe("You already have an account on the Learning Portal");
    expect(mail.text).not.toContain("confirm=");
    await openSignedIn(page, learner);
    await expect(page.locator("details.user-menu summary")).toContainText(learner.name);
  });

  test("'Forgot password?': the same answer for every address, a one-time link, then signed in with the new password", async ({
    page,
    learner,
    request,
    browser,
  }) => {
    // A session elsewhere, which the new password ends.
    const elsewhere = await browser.newContext({ javaScriptEnabled: false });
    const other = await elsewhere.newPage();
    await login(other, learner, "/learn/courses");
    await expect(other.locator("details.user-menu summary")).toContainText(learner.name);

    const ask = async (email: string) => {
      await page.goto("/learn");
      await page.getByRole("link", { name: "Forgot password?" }).click();
      await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
      await page.getByLabel("E-mail").fill(email);
      await page.getByRole("button", { name: "Send me a link" }).click();
      await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
      return (await page.locator("main").innerText()).replace(email, "<address>");
    };
    const unknown = `nobody-${test.info().project.name}-${Date.now()}@example.com`;
    expect(await ask(learner.email)).toBe(await ask(unknown));
    await expect(page.getByRole("status")).toContainText("The link works once, within 30 minutes.");
    await expectAccessible(page);

    const mail = await mailTo(request, learner.email, "reset");
    expect(mail.subject).toBe("Choose a new password for the Learning Portal");
    const link = /https?:\/\/\S+\/oidc\/login\?reset=[\w-]{43}/.exec(mail.text)![0];
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    await page.getByLabel("New password", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Save and sign in" }).click();
    await expect(page.getByText("The password must have at least 8 characters.")).toBeVisible();
    await page.getByLabel("New password", { exact: true }).fill("a brand new password");
    await page.getByRole("button", { name: "Save and sign in" }).click();
    await expect(page.locator("details.user-menu summary")).toContainText(learner.name);

    // The other session ended; the old password no longer works, the new one does; the link is spent.
    await other.goto("/learn/courses");
    await expect(signInHeading(other)).toBeVisible();
    await other.getByLabel(/e-mail/i).fill(learner.email);
    await other.getByLabel(/password/i).fill(learner.password);
    await other.getByRole("button", { name: /sign in/i }).click();
    await expect(other.getByRole("alert")).toHaveText("The e-mail or password is incorrect.");
    await other.getByLabel(/password/i).fill("a brand new password");
    await other.getByRole("button", { name: /sign in/i }).click();
    await expect(other.locator("details.user-menu summary")).toContainText(learner.name);
    await other.goto(link);
    await expect(other.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
    await elsewhere.close();
  });

  test("'Forgot password?' is rate-limited per address, known or not", async ({ page }) => {
    const email = `limited-${test.info().project.name}-${Date.now()}@example.com`;
    await page.goto("/oidc/login?provider=forgot");
    for (let i = 0; i < 3; i++) {
      await page.getByLabel("E-mail").fill(email);
      await page.getByRole("button", { name: "Send me a link" }).click();
      await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
      await page.goBack();
    }
    await page.getByLabel("E-mail").fill(email);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Send me a link" }).click(),
    ]);
    expect(response.status()).toBe(429);
    await expect(page.getByRole("alert")).toHaveText(/too many/i);
  });
});

test.describe("impersonation (spec 1)", () => {
  test("an operator's impersonation link signs in as the learner with the plugin and its sign-out", async ({
    page,
    learner,
  }) => {
    const made = await page.request.post("/api/test-support/v1/impersonations", {
      data: { command: "impersonate", admin: DEMO.admin.email, as: learner.email },
    });
    expect(made.status()).toBe(201);
    const { url } = (await made.json()) as { url: string };
    await page.goto(url);
    await expect(page).toHaveURL(/\/learn(\/|$)/);
    const banner = page.getByRole("status").filter({ hasText: `You are acting as ${learner.name}.` });
    await expect(banner).toBeVisible();
    await expectAccessible(page);
    await banner.getByRole("button", { name: "Sign out" }).click();
    await expect(signedOutHeading(page)).toBeVisible();

    // The link works once.
    await page.goto(url);
    await expect(page.getByText("This impersonation link is invalid, expired or already used.")).toBeVisible();
  });
});
