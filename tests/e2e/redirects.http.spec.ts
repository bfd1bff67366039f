import type { APIRequestContext } from "@playwright/test";
import { test, expect, login } from "./fixtures";
import { hostileTargets, staysHome } from "../fixtures/hostile-redirects";

/**
 * Issue 17 item 1, over HTTP (the domain table is domain/redirect.test.ts): every route that redirects
 * to a target it was given keeps the Location on the app's own origin, for each hostile variant.
 * Routes: /learn/login-callback?redirectUrl=, /oidc/login?redirectUrl= (through the provider and back,
 * signed in), /learn/language's returnTo, /learn/browser-alert's returnTo (issue 29 item 4: it had a check
 * of its own) and the content action's back.
 */

/** Follows redirects by hand from `path`, checking every hop; returns the last Location. */
async function followHome(request: APIRequestContext, path: string, own: string): Promise<string> {
  let next = path;
  for (let hop = 0; hop < 8; hop++) {
    const res = await request.get(next, { maxRedirects: 0 });
    const location = res.headers()["location"];
    if (res.status() < 300 || res.status() >= 400 || !location) return next;
    expect(staysHome(location, own), `${path} → hop ${hop}: ${location}`).toBe(true);
    next = new URL(location, own).pathname + new URL(location, own).search;
  }
  return next;
}

test.use({ learnerRecipe: { like: "ada" } });

test.describe("no route redirects off the app's origin", () => {
  test("/learn/login-callback?redirectUrl=", async ({ request, baseURL }) => {
    const own = new URL(baseURL!).origin;
    const variants = hostileTargets(own);
    expect(variants.length).toBeGreaterThanOrEqual(40);
    for (const [name, target] of variants) {
      const res = await request.get(`/learn/login-callback?redirectUrl=${encodeURIComponent(target)}`, {
        maxRedirects: 0,
      });
      expect(res.status(), name).toBeGreaterThanOrEqual(300);
      expect(res.status(), name).toBeLessThan(400);
      expect(staysHome(res.headers()["location"], own), `${name}: ${res.headers()["location"]}`).toBe(true);
    }
    // A target of the app's own is kept.
    const kept = await request.get(`/learn/login-callback?redirectUrl=${encodeURIComponent("/learn/catalog")}`, {
      maxRedirects: 0,
    });
    expect(kept.headers()["location"]).toBe("/learn/catalog");
  });

  test("/oidc/login?redirectUrl=, through the provider and the callback, signed in", async ({
    page,
    learner,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const own = new URL(baseURL!).origin;
    await login(page, learner, "/learn/courses");
    await expect(page.locator("main")).toBeVisible();
    const request = page.context().request;
    for (const [name, target] of hostileTargets(own)) {
      const last = await followHome(request, `/oidc/login?redirectUrl=${encodeURIComponent(target)}`, own);
      // The flow ends on a page of the app's origin (the fallback, or the path the rule kept).
      expect(staysHome(last, own), `${name}: ${last}`).toBe(true);
    }
    expect(await followHome(request, `/oidc/login?redirectUrl=${encodeURIComponent("/learn/catalog")}`, own)).toBe(
      "/learn/catalog",
    );
  });

  test("/learn/language with returnTo", async ({ request, baseURL }) => {
    const own = new URL(baseURL!).origin;
    for (const [name, target] of hostileTargets(own)) {
      const res = await request.post("/learn/language", {
        form: { lng: "de", returnTo: target },
        headers: { Origin: own },
        maxRedirects: 0,
      });
      expect(res.status(), name).toBe(303);
      expect(staysHome(res.headers()["location"], own), `${name}: ${res.headers()["location"]}`).toBe(true);
    }
  });

  test("/learn/browser-alert with returnTo", async ({ request, baseURL }) => {
    const own = new URL(baseURL!).origin;
    for (const [name, target] of hostileTargets(own)) {
      const res = await request.post("/learn/browser-alert", {
        form: { intent: "dismissBrowserAlert", returnTo: target },
        headers: { Origin: own },
        maxRedirects: 0,
      });
      expect(res.status(), name).toBeGreaterThanOrEqual(300);
      expect(res.status(), name).toBeLessThan(400);
      expect(staysHome(res.headers()["location"], own), `${name}: ${res.headers()["location"]}`).toBe(true);
    }
    const kept = await request.post("/learn/browser-alert", {
      form: { intent: "dismissBrowserAlert", returnTo: "/learn/catalog?page=2" },
      headers: { Origin: own },
      maxRedirects: 0,
    });
    expect(kept.headers()["location"]).toBe("/learn/catalog?page=2");
  });

  test("the content action's back", async ({ page, learner, baseURL }) => {
    test.setTimeout(120_000);
    const own = new URL(baseURL!).origin;
    await login(page, learner, "/learn/courses");
    await expect(page.locator("main")).toBeVisible();
    const request = page.context().request;
    // A course of this learner's with an attempt: its content page's forms name the workflow.
    const courses = [...new Set((await page.content()).match(/\/learn\/courses\/[0-9a-f-]{36}/g))];
    let found: { course: string; workflowId: string } | null = null;
    for (const course of courses) {
      const res = await request.get(`${course}/view/content`);
      // A course not started sends its content page to its details: not one with an attempt.
      if (!new URL(res.url()).pathname.endsWith("/view/content")) continue;
      const workflowId = /name="workflowId" value="([0-9a-f-]{36})"/.exec(await res.text())?.[1];
      if (workflowId) {
        found = { course, workflowId };
        break;
      }
    }
    expect(found, "a course with an attempt among the learner's").not.toBeNull();
    const { course, workflowId } = found!;
    for (const [name, target] of hostileTargets(own)) {
      const res = await request.post(`${course}/view/content`, {
        form: { intent: "startActivity", workflowId, activityPathId: crypto.randomUUID(), back: target },
        headers: { Origin: own },
        maxRedirects: 0,
      });
      const location = res.headers()["location"];
      // A back longer than any page address is refused as a bad form (400, nowhere to go).
      if (res.status() === 400 && target.length > 2048) {
        expect(location, name).toBeUndefined();
        continue;
      }
      expect(res.status(), name).toBeGreaterThanOrEqual(300);
      expect(res.status(), name).toBeLessThan(400);
      expect(staysHome(location, own), `${name}: ${location}`).toBe(true);
      // And inside this course's pages (the action's own, narrower rule).
      expect(new URL(location!, own).pathname.startsWith(course), `${name}: ${location}`).toBe(true);
    }
  });
});
