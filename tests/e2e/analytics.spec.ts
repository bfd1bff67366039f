import { test, expect, login, courseIdByName } from "./fixtures";

/**
 * Issue 16 item 8: the server records what the screens do — a My courses search (its length and
 * result count, never the words unless ANALYTICS_SEARCH_TEXT=1) and a course start — when the command
 * succeeded, so with JavaScript off too. Read back through the tests' own test-support endpoint.
 */
test("a My courses search and a course start are recorded by the server, the words searched are not", async ({
  page,
  learner,
  request,
}) => {
  await login(page, learner);
  await page.goto("/learn/courses?keyword=sql");
  const id = await courseIdByName(page, "Git Workflows for Teams");
  await page.goto(`/learn/courses/${id}`);
  await page.getByRole("button", { name: "Start", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/learn/courses/${id}/view/content`));

  const events = async () =>
    (
      (await (await request.get(`/api/test-support/v1/analytics-events?userId=${learner.id}`)).json()) as {
        data: { name: string; props: Record<string, unknown> }[];
      }
    ).data;
  await expect.poll(async () => (await events()).map((e) => e.name)).toContain("course_start");
  const recorded = await events();
  expect(recorded.find((e) => e.name === "course_start")?.props).toEqual({ objectiveId: id });
  expect(recorded.find((e) => e.name === "my_courses_search")?.props).toEqual({
    keywordLength: 3,
    resultCount: expect.any(Number),
  });
  expect(JSON.stringify(recorded)).not.toContain('"sql"');
});
