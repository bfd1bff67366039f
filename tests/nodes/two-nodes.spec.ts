/**
 * Two nodes on one PostgreSQL database behave as one (issue 17 item 15, decision 019; issue 28,
 * decision 037): two app processes started at the same moment on an empty database and one empty data
 * folder, behind nginx (round-robin; a test may pin its requests to node A or B), their files in a
 * bucket (tests/nodes/cluster.ts). With JavaScript on and off, each test with a learner of its own.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import pg from "pg";
import { test, expect, login, expectAccessible, type Learner } from "../e2e/fixtures";
import type { NodeName } from "./cluster";

const userMenu = (page: Page) => page.locator("details.user-menu summary");
const cards = (page: Page) => page.locator(".card-grid > li.course-card");
const card = (page: Page, name: string) =>
  cards(page).filter({ has: page.getByRole("heading", { name, exact: true }) });
/** A small file that is what its name says. */
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
const collections = (page: Page) => page.getByRole("navigation", { name: "Collections" });

/** From now on the page's requests go to this node (the balancer reads the header). */
async function onNode(page: Page, node: NodeName) {
  await page.context().setExtraHTTPHeaders({ "x-node": node });
}

/**
 * Signs in through node A: every step the browser takes goes to A, while the app's own calls to the
 * provider (discovery, keys, the token exchange) carry no `x-node` and are round-robin — a code
 * issued by A is redeemed at whichever node nginx picks, which works only because both nodes found
 * the same keys and client secret in the database.
 */
async function signIn(page: Page, learner: Learner, path = "/learn/courses") {
  await onNode(page, "A");
  await login(page, learner, `/oidc/login?redirectUrl=${encodeURIComponent(path)}`);
  await expect(userMenu(page)).toContainText(learner.name);
}

/** Opens a page and checks which node answered. */
async function open(page: Page, path: string, node: NodeName) {
  await onNode(page, node);
  const response = await page.goto(path);
  expect(response?.headers()["x-served-by"], `${path} answered by node ${node}`).toBe(node);
  return response;
}

/** The database, as an operator (or a node's own write) changes it. */
async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.NODES_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

test.describe("two nodes on one PostgreSQL database", () => {
  test.describe("sign-in", () => {
    test.use({ learnerRecipe: { like: "ada" } });

    test("a learner signs in on node A and continues on node B, courses and all", async ({ page, learner }) => {
      await signIn(page, learner);
      await expect(page).toHaveURL(/\/learn\//);
      await open(page, "/learn/courses", "A");
      const onA = await cards(page).count();
      expect(onA).toBeGreaterThan(0);

      await open(page, "/learn/courses", "B");
      await expect(page.getByRole("heading", { level: 1, name: "My courses" })).toBeVisible();
      await expect(userMenu(page)).toContainText(learner.name);
      await expect(cards(page)).toHaveCount(onA);
      await expectAccessible(page);
    });

    test("a learner signs in through the proxy with no node chosen: every step round-robin", async ({
      page,
      learner,
    }) => {
      const served = new Set<string>();
      page.on("response", (r) => {
        const node = r.headers()["x-served-by"];
        if (node) served.add(node);
      });
      await login(page, learner, "/oidc/login?redirectUrl=%2Flearn%2Fcourses");
      await expect(userMenu(page)).toContainText(learner.name);
      for (let i = 0; i < 4; i++) {
        await page.goto("/learn/courses");
        await expect(userMenu(page)).toContainText(learner.name);
        await expect(cards(page).first()).toBeVisible();
      }
      expect([...served].sort()).toEqual(["A", "B"]);
    });
  });

  test.describe("files and live chat across nodes", () => {
    const onboarding = { course: "onboarding", selfEnrolled: true };
    test.use({ learnerRecipe: { enrolments: [onboarding] } });

    async function openChat(page: Page, who: Learner, node: NodeName) {
      await signIn(page, who);
      await onNode(page, node);
      await page
        .locator(".card-grid > li.course-card")
        .filter({ has: page.getByRole("heading", { name: "Welcome to Northwind", exact: true }) })
        .getByRole("link")
        .first()
        .click();
      await page.getByRole("link", { name: "Notifications" }).click();
      await page.getByRole("link", { name: /Course chat/ }).click();
      await expect(page.getByRole("heading", { level: 2, name: "Course chat" })).toBeVisible();
    }

    test("a file posted through A arrives in B's open chat (live through nginx with JavaScript) and is read from B", async ({
      page,
      learner,
      newLearner,
      browser,
      jsEnabled,
    }) => {
      await openChat(page, learner, "B");
      const other = await newLearner({ enrolments: [onboarding] });
      const ctx = await browser.newContext();
      try {
        const theirs = await ctx.newPage();
        await openChat(theirs, other, "A");
        const word = `node-file-${crypto.randomUUID()}`;
        await theirs.getByLabel("Message", { exact: true }).fill(word);
        await theirs
          .getByLabel("Attach files")
          .setInputFiles({ name: "handout.pdf", mimeType: "application/pdf", buffer: PDF });
        await theirs.getByRole("button", { name: "Send" }).click();
        await expect(theirs.getByText("Message sent.")).toBeVisible();

        // B's page: the event stream through nginx brings it; without JavaScript, a refresh from B.
        if (!jsEnabled) await page.getByRole("link", { name: "Refresh" }).click();
        const link = page
          .locator(".chat__message")
          .filter({ hasText: word })
          .getByRole("link", { name: `handout.pdf (${PDF.length} B)` });
        await expect(link).toBeVisible();
        const file = await page.request.get((await link.getAttribute("href"))!, { headers: { "x-node": "B" } });
        expect(file.headers()["x-served-by"]).toBe("B");
        expect(file.status()).toBe(200);
        expect(Buffer.from(await file.body()).equals(PDF)).toBe(true);
        const part = await page.request.get((await link.getAttribute("href"))!, {
          headers: { "x-node": "B", Range: "bytes=0-7" },
        });
        expect(part.status()).toBe(206);
        expect(await part.text()).toBe("%PDF-1.4");
        // In the bucket, not in the nodes' data folder.
        expect(existsSync(join(process.env.NODES_DATA_DIR!, "storage", "chat"))).toBe(false);
      } finally {
        await ctx.close();
      }
    });
  });

  test.describe("a hand-in across nodes", () => {
    test.use({
      learnerRecipe: {
        enrolments: [
          {
            course: "testing-strategies",
            selfEnrolled: true,
            attempts: [{ state: "inProgress", progress: 0, startedAgo: 2 }],
          },
        ],
      },
    });

    test("a draft with a file saved through A is on B, whose copy of the file is the same; handed in on B, A shows it", async ({
      page,
      learner,
    }) => {
      const assignment = "Final assignment: a test plan";
      await signIn(page, learner, "/learn/courses?keyword=testing");
      const href = await card(page, "Testing Strategies: Unit, Integration and End-to-End")
        .getByRole("link")
        .first()
        .getAttribute("href");
      const id = /\/learn\/courses\/([0-9a-f-]{36})/.exec(href ?? "")?.[1];
      await open(page, `/learn/courses/${id}/view/content`, "A");
      await page.getByRole("navigation", { name: "Table of contents" }).getByRole("link", { name: assignment }).click();
      await page.getByRole("link", { name: "Hand in your work" }).click();
      // (The content page has the same heading: the hand-in page is the one with the URL and the form.)
      await expect(page).toHaveURL(/\/hand-in\//);
      await expect(page.getByLabel("Your answer")).toBeVisible();
      const handIn = page.url();

      // On A (with JavaScript the file goes by the upload route, with its progress): a draft with a file.
      await page.getByLabel("Your answer").fill("Contract tests between the nodes.");
      await page.getByLabel("Add files").setInputFiles({ name: "plan.pdf", mimeType: "application/pdf", buffer: PDF });
      await page.getByRole("button", { name: "Save draft" }).click();
      await expect(page.getByText("Your draft is saved.")).toBeVisible();

      // B shows the draft, and serves the file from the bucket.
      await open(page, handIn, "B");
      await expect(page.getByLabel("Your answer")).toHaveValue("Contract tests between the nodes.");
      const link = page.getByRole("link", { name: "plan.pdf" });
      await expect(link).toBeVisible();
      const file = await page.request.get((await link.getAttribute("href"))!, { headers: { "x-node": "B" } });
      expect(file.headers()["x-served-by"]).toBe("B");
      expect(file.status()).toBe(200);
      expect(Buffer.from(await file.body()).equals(PDF)).toBe(true);
      expect(existsSync(join(process.env.NODES_DATA_DIR!, "storage", "hand-ins"))).toBe(false);

      // Handed in on B; A's next request shows it submitted, the file listed.
      await page.getByRole("button", { name: "Hand in…" }).click();
      const confirm = page.getByRole("region", { name: "Hand in this work?" });
      await expect(confirm.getByText("File: plan.pdf")).toBeVisible();
      await confirm.getByRole("button", { name: "Hand in now" }).click();
      await expect(page.getByText("Your work is handed in.")).toBeVisible();
      await open(page, handIn, "A");
      await expect(page.getByRole("status").filter({ hasText: /Submitted on/ })).toContainText("Awaiting grading");
      await expect(page.getByRole("link", { name: "plan.pdf" })).toBeVisible();
    });
  });

  test.describe("a write on A is what B shows on its next request", () => {
    test.use({ learnerRecipe: { enrolments: [{ course: "git-workflows", selfEnrolled: true }] } });

    test("an enrolment: the course and its collection appear on B at once", async ({ page, learner }) => {
      const course = "Coaching Skills Workshop"; // collection "Leadership"
      await signIn(page, learner);
      // B remembers this learner's filter lists (decision 019: until a change notice says otherwise).
      await open(page, "/learn/courses", "B");
      await expect(card(page, "Git Workflows for Teams")).toBeVisible();
      await expect(collections(page).getByRole("link", { name: "Software Engineering" })).toBeVisible();
      await expect(collections(page).getByRole("link", { name: "Leadership" })).toHaveCount(0);

      // On A: "Add to my courses".
      await open(page, `/learn/catalog?keyword=${encodeURIComponent(course.toLowerCase())}`, "A");
      await card(page, course).getByRole("link", { name: course }).click();
      await expect(page.getByRole("heading", { level: 1, name: course })).toBeVisible();
      await page.getByRole("button", { name: "Add to my courses" }).click();
      await expect(page).toHaveURL(/\/learn\/courses$/);

      // B's next request shows it: the course, and its collection among the filters.
      await open(page, "/learn/courses", "B");
      await expect(card(page, course)).toBeVisible();
      await expect(collections(page).getByRole("link", { name: "Leadership" })).toBeVisible();
    });
  });

  test.describe("a change made elsewhere is what B shows on its next request", () => {
    test.use({ learnerRecipe: { like: "ada" } });

    test("a time zone: B shows the learner's times in the new zone", async ({ page, learner }) => {
      const course = "Python for Data Analysis";
      const event = "Live Q&A with the instructors";
      await signIn(page, learner);
      await open(page, `/learn/catalog?keyword=${encodeURIComponent(course.toLowerCase())}`, "B");
      const href = await page.getByRole("link", { name: course, exact: true }).first().getAttribute("href");
      const id = /\/learn\/catalog\/([0-9a-f-]{36})/.exec(href ?? "")?.[1];
      expect(id, "the course's catalog link").toBeTruthy();
      await open(page, `/learn/courses/${id}/view/content`, "B");
      const link = page
        .getByRole("navigation", { name: "Table of contents" })
        .getByRole("listitem")
        .filter({ has: page.locator(".toc__name").getByText(event, { exact: true }) })
        .getByRole("link");
      // The link's #activity- fragment would make a second visit a same-document move with no response.
      const activity = (await link.getAttribute("href"))!.replace(/#.*$/, "");
      await open(page, activity, "B");
      const zoneLine = page.locator(".event").getByText(/^Times are shown in /);
      await expect(zoneLine).toBeVisible();
      const next = (await zoneLine.textContent())?.includes("Asia/Tokyo") ? "America/Lima" : "Asia/Tokyo";

      // B remembers the learner's shell (their zone); the zone changes in the database, as an
      // administrator's tool or another node's write would change it.
      await sql("update users set timezone = $1 where email = $2", [next, learner.email]);
      await open(page, activity, "B");
      await expect(zoneLine).toHaveText(`Times are shown in ${next}.`);
    });
  });

  test("the same 'Add to my courses' sent to both nodes at once makes one enrolment", async ({ page, learner }) => {
    const course = "Data Visualisation with D3.js";
    await signIn(page, learner, "/learn/catalog");
    await open(page, `/learn/catalog?keyword=${encodeURIComponent(course.toLowerCase())}`, "A");
    await card(page, course).getByRole("link", { name: course }).click();
    await expect(page.getByRole("heading", { level: 1, name: course })).toBeVisible();
    const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Add to my courses" }) });
    const enrolId = await form.locator('input[name="enrolId"]').inputValue();
    const intent = await form.locator('input[name="intent"]').inputValue();
    // A double click that a balancer spread over both nodes: the same form, twice, at the same time.
    const post = (node: NodeName) =>
      page.request.post(page.url(), {
        form: { intent, enrolId },
        headers: { "x-node": node, Origin: new URL(page.url()).origin },
        maxRedirects: 0,
      });
    const answers = await Promise.all([post("A"), post("B")]);
    expect(answers.map((a) => a.headers()["x-served-by"]).sort()).toEqual(["A", "B"]);
    expect(answers.map((a) => a.status())).toEqual([answers[0].status(), answers[0].status()]);
    expect(answers[0].status()).toBeLessThan(400);

    const commands = await sql<{ n: number }>("select count(*)::int as n from commands where id = $1", [enrolId]);
    expect(commands[0].n).toBe(1);
    const enrolments = await sql<{ n: number }>(
      `select count(*)::int as n from objective_workflow_aggregates a
         join users u on u.id = a.user_id join objectives o on o.id = a.objective_id
       where u.email = $1 and o.name = $2`,
      [learner.email, course],
    );
    expect(enrolments[0].n).toBe(1);
    await open(page, "/learn/courses", "B");
    await expect(card(page, course)).toHaveCount(1);
  });
});
