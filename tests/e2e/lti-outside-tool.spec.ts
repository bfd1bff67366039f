import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import ltijs from "ltijs";
import { test as base, expect, login, expectAccessible, type Learner } from "./fixtures";
import { LtijsMemoryDb } from "../fixtures/ltijs-memory-db";
import type { Page } from "@playwright/test";

/**
 * Issue 32 item 1: a real LTI 1.3 launch from Chromium into a tool on another site — built with ltijs
 * (an IMS-certified LTI Advantage library), started by this test on 127.0.0.1 while the app is on
 * localhost — registered and attached by the operator's command (`npm run lti:tool -- add|attach`,
 * item 2), through every hop: the launch page → the tool's login initiation → its redirect to the
 * platform's /learn/lti/authorize → the id_token form posted to the tool's redirect URI → the tool's
 * redirect to its own page. Each page's CSP lets the browser go exactly there (`form-action`, checked on
 * every redirect after a form submission); a violation is a console error, which fails the test. The
 * tool's score comes back through ltijs's own AGS client and shows on the course page.
 *
 * JavaScript on: the course (EmbeddedAuto) frames the tool. Chromium keeps no unpartitioned cookie of a
 * site framed by another, and ltijs 5.9 cannot mark its cookies `Partitioned`, so in the frame ltijs
 * runs in its devMode (a missing state cookie is tolerated; one that is present is still checked).
 * JavaScript off: the tool opens in a window of its own, where ltijs checks its state cookie (SameSite=
 * None; Secure — Chromium keeps Secure cookies of http://127.0.0.1) and its session cookie as in
 * production. Each project has its own tool (key, client id, port) and course, so they may run at once.
 */
const PROJECT = {
  js: { course: "cloud-architecture", name: "Cloud Architecture on AWS", code: "CL-330" },
  nojs: { course: "typescript-deep-dive", name: "TypeScript Deep Dive", code: "TS-301" },
} as const;

interface OutsideTool {
  key: string;
  origin: string;
  /** Launches the tool received, as ltijs verified them. */
  launches: { user: string; resource: string; custom: Record<string, string>; roles: string[] }[];
}

// The compiled command `npm run lti:tool` runs, built with the test server (no transpiler).
const repo = process.cwd();
const cli = (args: string[]) =>
  execFileSync(process.execPath, ["build/node/ops-cli.js", "lti", ...args], {
    cwd: repo,
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, PORT: process.env.E2E_PORT ?? "3210" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body><main><h1>${esc(title)}</h1>${body}</main></body></html>`;

const test = base.extend<{ project: (typeof PROJECT)[keyof typeof PROJECT] }, { outsideTool: OutsideTool }>({
  project: async ({ jsEnabled }, use) => use(PROJECT[jsEnabled ? "js" : "nojs"]),
  outsideTool: [
    async ({}, use, workerInfo) => {
      const js = workerInfo.project.use.javaScriptEnabled !== false;
      const name = js ? "js" : "nojs";
      const platform = `http://localhost:${process.env.E2E_PORT ?? 3210}`;
      const tool: OutsideTool = { key: `ltijs-${name}`, origin: "", launches: [] };
      const lti = ltijs.Provider;
      lti.setup(
        `ltijs-e2e-encryption-key-${name}-0123456789`,
        { plugin: new LtijsMemoryDb() },
        {
          appRoute: "/",
          loginRoute: "/login",
          keysetRoute: "/keys",
          devMode: js,
          cookies: { secure: true, sameSite: "None" },
        },
      );
      lti.onConnect((token: LtijsToken, _req: unknown, res: LtijsResponse) => {
        const custom = token.platformContext.custom ?? {};
        tool.launches.push({
          user: token.user,
          resource: token.platformContext.resource.title,
          custom,
          roles: token.platformContext.roles,
        });
        res.send(
          page(
            "Outside lab (ltijs)",
            `<p data-testid="lti-resource">${esc(token.platformContext.resource.title)}</p>` +
              `<p data-testid="lti-custom">${esc(custom.lab ?? "")}</p>` +
              `<form method="post" action="/grade"><input type="hidden" name="ltik" value="${esc(res.locals.ltik)}">` +
              `<label>Score out of 100 <input name="score" type="number" min="0" max="100" required></label>` +
              `<button type="submit">Send the score</button></form>`,
          ),
        );
      });
      // The tool's own page that sends a score with ltijs's AGS client (ltik authenticates the request).
      lti.app.post("/grade", async (req: { body: { score?: string } }, res: LtijsResponse) => {
        const idtoken = res.locals.token;
        const score = Number(req.body.score);
        await lti.Grade.submitScore(idtoken, idtoken.platformContext.endpoint.lineitem, {
          scoreGiven: score,
          scoreMaximum: 100,
          activityProgress: "Completed",
          gradingProgress: "FullyGraded",
        });
        res.send(page("Outside lab (ltijs)", `<p role="status">Your score ${score} / 100 was sent to the course.</p>`));
      });
      await lti.deploy({ serverless: true, silent: true });
      const server: Server = createServer(lti.app);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      tool.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await lti.registerPlatform({
        url: platform,
        name: "Learner app",
        clientId: `${tool.key}-client`,
        authenticationEndpoint: `${platform}/learn/lti/authorize`,
        accesstokenEndpoint: `${platform}/api/lti/v1/token`,
        authConfig: { method: "JWK_SET", key: `${platform}/api/lti/v1/jwks` },
      });
      // The operator registers the tool and points the course's activity at it, the server running.
      cli([
        "add",
        ...["--key", tool.key, "--name", "Outside lab (ltijs)", "--version", "1.3"],
        ...["--client-id", `${tool.key}-client`, "--deployment-id", `${tool.key}-deployment`],
        ...["--login-url", `${tool.origin}/login`, "--launch-url", `${tool.origin}/`],
        ...["--jwks-url", `${tool.origin}/keys`, "--redirect-uri", `${tool.origin}/`],
      ]);
      const course = PROJECT[name].code;
      const attached = JSON.parse(
        cli(["attach", tool.key, "--course", course, "--custom", "lab=outside", "--custom", "learner=$User.id"]),
      );
      expect(attached).toMatchObject({ course, tool: tool.key, custom: { lab: "outside" } });
      await use(tool);
      await lti.close({ silent: true }).catch(() => {});
      await new Promise((resolve) => server.close(resolve));
    },
    // Starting the tool and two operator's commands (tsx each): more than a test's 30 s on a loaded machine.
    { scope: "worker", timeout: 120_000 },
  ],
});

test.use({
  learnerRecipe: {
    enrolments: Object.values(PROJECT).map((p) => ({
      course: p.course,
      attempts: [{ state: "inProgress" as const, progress: 0, startedAgo: 1 }],
    })),
  },
});

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** The course's id, found through My courses. */
async function courseId(page: Page, name: string) {
  await page.goto(`/learn/courses?keyword=${encodeURIComponent(name.split(" ")[0]!.toLowerCase())}`);
  const card = page
    .locator(".card-grid > li.course-card")
    .filter({ has: page.getByRole("heading", { name, exact: true }) });
  const href = await card.getByRole("link").first().getAttribute("href");
  const id = new RegExp(`/learn/courses/(${UUID})`).exec(href ?? "")?.[1];
  expect(id, `My courses link of ${name}`).toBeTruthy();
  return id!;
}

async function expectLaunched(tool: OutsideTool, learner: Learner, resource: string) {
  await expect.poll(() => tool.launches.length).toBe(1);
  expect(tool.launches[0]).toMatchObject({
    user: learner.id,
    resource,
    custom: { lab: "outside", learner: learner.id },
    roles: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
  });
}

test("a tool built with ltijs on another site launches with every hop allowed, and its score shows on the course page", async ({
  page,
  learner,
  jsEnabled,
  outsideTool,
  project,
}) => {
  // The whole journey through a server of its own: sign-in, launch, score, submit, course page.
  test.setTimeout(90_000);
  outsideTool.launches.length = 0;
  await login(page, learner);
  const id = await courseId(page, project.name);
  await page.goto(`/learn/courses/${id}/view/content`);
  let tool;
  if (jsEnabled) {
    // EmbeddedAuto: the tool in the course's frame, on 127.0.0.1 (another site).
    const frame = page.locator(`iframe[title="External tool: ${project.name}"]`);
    await expect(frame).toBeVisible();
    tool = page.frameLocator(`iframe[title="External tool: ${project.name}"]`);
    await expect(tool.getByRole("heading", { name: "Outside lab (ltijs)" })).toBeVisible({ timeout: 20_000 });
    await expectAccessible(page);
  } else {
    // Fullscreen without JavaScript: a window of its own, each self-posting page a button.
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      page.getByRole("button", { name: "Open the tool", exact: true }).click(),
    ]);
    const violations: string[] = [];
    // A hop the page's CSP does not allow is a console error naming the Content Security Policy. (The
    // tool's 401 for its favicon, asked without an ltik, is a console error too: not a violation.)
    popup.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    // To the tool's login initiation, which redirects to the platform's authorize endpoint…
    await popup.getByRole("button", { name: "Continue to the tool" }).click();
    await expect(popup).toHaveURL(/\/learn\/lti\/authorize\?/);
    // …whose id_token form goes to the tool's redirect URI, which redirects to the tool's page.
    await popup.getByRole("button", { name: "Continue to the tool" }).click();
    await expect(popup).toHaveURL(new RegExp(`^${outsideTool.origin}/\\?ltik=`));
    expect(violations).toEqual([]);
    tool = popup;
  }
  await expectLaunched(outsideTool, learner, project.name);
  await expect(tool.getByTestId("lti-resource")).toHaveText(project.name);
  await expect(tool.getByTestId("lti-custom")).toHaveText("outside");
  await tool.getByLabel("Score out of 100").fill("80");
  await tool.getByRole("button", { name: "Send the score" }).click();
  await expect(tool.getByText("Your score 80 / 100 was sent to the course.")).toBeVisible();

  // The tool finished the course's one activity: the learner submits the course, and the course page
  // shows the tool's score, scaled to the activity's 100 points.
  await page.goto(`/learn/courses/${id}/view/content`);
  await page.getByRole("link", { name: "Submit the course" }).click();
  await page.getByRole("button", { name: "Submit", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/learn/courses/${id}(\\?|$)`));
  await expect(page.getByRole("region", { name: "Results" }).getByText("80 out of 100 points")).toBeVisible();
});

interface LtijsToken {
  user: string;
  platformContext: {
    endpoint: { lineitem: string };
    resource: { id: string; title: string };
    custom?: Record<string, string>;
    roles: string[];
  };
}
interface LtijsResponse {
  locals: { token: LtijsToken; ltik: string };
  send(body: string): void;
}
