import { execFileSync } from "node:child_process";
import { test, expect, login, expectAccessible } from "./fixtures";

/**
 * Issue 32 item 4: the operator revokes a certificate with `npm run certificates -- revoke` while the
 * server runs (the command goes through /operator/v1/certificates), and the public certificate page a
 * visitor opens says "Revoked certificate" within its cache time (decision 020: lookup 20 s + page
 * 10 s on the server, 30 s in a browser — each visit here is a fresh visitor, so at most 30 s).
 */
test.use({ learnerRecipe: { like: "ada" } });

// The compiled command `npm run certificates` runs, built with the test server (no transpiler).
const repo = process.cwd();
const certificates = (args: string[]) =>
  execFileSync(process.execPath, ["build/node/ops-cli.js", "certificates", ...args], {
    cwd: repo,
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, PORT: process.env.E2E_PORT ?? "3210" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

// The server's caches are the rule here and the visitor's page a read: JavaScript only (decision 052).
test(
  "a certificate the operator revokes shows as revoked on its public page within the cache time",
  { tag: "@js-only" },
  async ({ page, browser, learner }) => {
    test.setTimeout(120_000);
    await login(page, learner);
    await page.goto(`/learn/courses?keyword=${encodeURIComponent("sql fundamentals")}`);
    await page
      .locator(".card-grid > li.course-card")
      .filter({ has: page.getByRole("heading", { name: "SQL Fundamentals", exact: true }) })
      .getByRole("link")
      .first()
      .click();
    const row = await page.getByRole("region", { name: "Certificates" }).locator("tbody tr").first().textContent();
    const number = /LA(-[0-9A-Z]{4}){4}/.exec(row ?? "")?.[0];
    expect(number, "the newest certificate's number").toBeTruthy();

    /** The public page as a new visitor sees it (no cookie, nothing cached in the browser). */
    const visit = async () => {
      const ctx = await browser.newContext();
      const visitor = await ctx.newPage();
      await visitor.goto(`/learn/certificate/${number}`);
      const status = (await visitor.getByRole("status").first().textContent())?.trim();
      return { ctx, visitor, status };
    };
    const before = await visit();
    expect(before.status).toBe("Valid certificate");
    await before.ctx.close();

    const revoked = JSON.parse(certificates(["revoke", number!, "--reason", "Issued in error (browser test)"]));
    expect(revoked).toMatchObject({ number, reason: "Issued in error (browser test)", changed: true });
    // Server caches (decision 020): the lookup is remembered 20 s and the rendered page 10 s, so a visit
    // that starts 30 s after the revocation sees it; visits follow each other, each at most `slowest` + 2 s
    // after the one before, so the first one that sees it starts by 30 s + slowest + 2 s.
    const at = Date.now();
    let seen = "";
    let seenAt = 0;
    let slowest = 0;
    while (Date.now() - at < 60_000) {
      const started = Date.now();
      const v = await visit();
      slowest = Math.max(slowest, Date.now() - started);
      seen = v.status ?? "";
      if (seen === "Revoked certificate") {
        seenAt = started - at;
        await expectAccessible(v.visitor);
        await v.ctx.close();
        break;
      }
      await v.ctx.close();
      await new Promise((r) => setTimeout(r, 2_000));
    }
    expect(seen).toBe("Revoked certificate");
    console.log(`revocation seen by a visit that started ${seenAt} ms after it (slowest visit ${slowest} ms)`);
    expect(seenAt).toBeLessThanOrEqual(30_000 + slowest + 2_000);
    // The operator's list shows it, with its reason.
    const listed = JSON.parse(certificates(["list", "--revoked", "--user", learner.email]));
    expect(listed).toEqual([expect.objectContaining({ number, reason: "Issued in error (browser test)" })]);
  },
);
