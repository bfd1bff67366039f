import { test, expect, login, expectAccessible, type Learner } from "./fixtures";

/**
 * Issue 16 item 6 in the browser: a server whose tutor has an OpenAI-compatible model (the fake one of
 * tests/fixtures/fake-openai-server.ts, run by playwright.external.config.ts). With JavaScript the answer
 * appears as the model writes it — its first words are on the page while the model still holds its
 * last — and once it ends the citations link into the course. Without JavaScript the form comes back
 * with the whole answer.
 */
const TUTOR = process.env.E2E_TUTOR_URL ?? "";
const MODEL = process.env.E2E_MODEL_URL ?? "";

test("the tutor's answer streams onto the page with a model, and ends with its citations", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(90_000);
  const made = await request.post(`${TUTOR}/api/test-support/v1/learners`, { data: { like: "ada" } });
  expect(made.status()).toBe(201);
  const learner = (await made.json()) as Learner;
  await login(page, learner, `${TUTOR}/learn/courses`);
  await expect(page.locator("details.user-menu")).toBeVisible();
  await page.goto(`${TUTOR}/learn/catalog?keyword=python+for+data+analysis`);
  const href = await page
    .getByRole("link", { name: "Python for Data Analysis", exact: true })
    .first()
    .getAttribute("href");
  const id = /\/learn\/catalog\/([0-9a-f-]{36})/.exec(href ?? "")![1];
  await page.goto(`${TUTOR}/learn/courses/${id}/tutor`);
  await expect(page.getByRole("heading", { level: 1, name: "AI tutor" })).toBeVisible();

  const question = "What is a variable and what types are there?";
  await page.getByLabel("Your question").fill(question);
  const exchange = page.locator(".tutor__exchange").filter({ hasText: question });
  if (jsEnabled) {
    await expect(page.locator("form.tutor__form[data-streaming]")).toBeAttached();
    await page.getByRole("button", { name: "Ask" }).click();
    // The first words, while the model holds the last one: streamed, not shown whole at the end.
    await expect(page.getByTestId("tutor-live")).toContainText("A variable names a value;");
    await expect(page.getByTestId("tutor-live")).not.toContainText("bool.");
    await expect(exchange.getByRole("button", { name: "Stop" })).toBeVisible();
    await expectAccessible(page);
    expect((await request.post(`${MODEL}/release`)).status()).toBe(204);
  } else {
    // Without JavaScript the page waits for the whole answer: let the model finish once it is asked.
    const release = (async () => {
      for (let i = 0; i < 50; i++) {
        await new Promise((r) => setTimeout(r, 200));
        await request.post(`${MODEL}/release`);
      }
    })();
    await page.getByRole("button", { name: "Ask" }).click();
    await release;
  }
  await expect(exchange.locator(".tutor__answer")).toContainText("Python's basic types are int, float, str and bool.");
  await expect(exchange.getByRole("button", { name: "Stop" })).toHaveCount(0);
  const source = exchange.getByRole("link", { name: "Variables, types and expressions" });
  await expect(source).toBeVisible();
  await expect(source).toHaveAttribute("href", new RegExp(`/learn/courses/${id}/view/content\\?activityPathId=`));
});
