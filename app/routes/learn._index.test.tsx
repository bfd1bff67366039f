import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { createLiteI18n, I18nProvider } from "~/common/i18n";
import dashboard from "../../locales/en-US/dashboard.json";
import common from "../../locales/en-US/common.json";
import calendar from "../../locales/en-US/calendar.json";
import DashboardPage from "./learn._index";

const course = (id: string, name: string) => ({
  id,
  name,
  code: `C-${id}`,
  href: `/learn/courses/${id}`,
  mandatory: true,
  progress: 40,
  due: "3 Dec 2026",
  lastUsed: "1 Dec 2026",
  submitted: "1 Dec 2026",
  locked: false,
});

const data = {
  summary: { enrolled: 3, inProgress: 1, notStarted: 1, completed: 1, overdue: 0, dueSoon: 0, averageProgress: 40 },
  calendar: true,
  zone: "UTC",
  continueLearning: { total: 2, data: [course("1", "Python basics")] },
  mandatory: { total: 1, data: [course("2", "Safety at work")] },
  waiting: { total: 1, data: [course("3", "Final project")] },
  results: { total: 0, data: [] },
  due: { total: 0, data: [] },
  events: { total: 0, data: [] },
  questions: { total: 0, data: [] },
};

/** The dashboard's text as a screen reader or a reader of the page meets it: markup stripped. */
function visibleText(html: string): string {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");
}

describe("the dashboard's visible text (spec 2.1)", () => {
  it("names each course and each 'All …' link and nothing of the markup", () => {
    const Stub = createRoutesStub([{ id: "dashboard", path: "/learn", Component: DashboardPage }]);
    const i18n = createLiteI18n("en-US", { ...common, ...calendar, ...dashboard });
    const html = renderToString(
      createElement(
        I18nProvider,
        { i18n },
        createElement(Stub, { initialEntries: ["/learn"], hydrationData: { loaderData: { dashboard: data } } }),
      ),
    );
    const text = visibleText(html);
    expect(text).toContain("Python basics");
    expect(text).toContain("Safety at work");
    expect(text).not.toMatch(/data-\w+/);
    expect(text).not.toMatch(/="/);
  });
});
