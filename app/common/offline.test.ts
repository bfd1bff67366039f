import { describe, expect, it } from "vitest";
import { offlineCopyHtml, pageResources, sendOutcome, showOfflineState, withSavedCourses } from "./offline";

const A = "11111111-2222-4333-8444-555555555555";
const B = "66666666-7777-4888-8999-000000000000";

describe("sendOutcome (the SCORM queue's rule, decision 025)", () => {
  it.each([
    ["network", "retry"],
    [0, "retry"],
    [429, "retry"],
    [500, "retry"],
    [503, "retry"],
    [200, "sent"],
    [204, "sent"],
    [303, "sent"],
    [400, "refused"],
    [403, "refused"],
    [404, "refused"],
    [409, "refused"],
  ] as const)("%s → %s", (status, outcome) => expect(sendOutcome(status)).toBe(outcome));
});

describe("offlineCopyHtml: a kept page reads as without JavaScript", () => {
  it("drops scripts and module preloads, unwraps noscript", () => {
    const html = `<head><link rel="modulepreload" href="/learn/assets/a.js"/><link rel="stylesheet" href="/learn/assets/app.css"/></head><body><main><noscript><object data="/learn/files/x"></object></noscript><p>Text</p></main><script nonce="n">window.__x = "</scr" + "ipt>";</script><script type="module" src="/learn/assets/entry.js"></script></body>`;
    const out = offlineCopyHtml(html);
    expect(out).not.toMatch(/<script/i);
    expect(out).not.toContain("modulepreload");
    expect(out).not.toMatch(/noscript/i);
    expect(out).toContain('<object data="/learn/files/x"></object>');
    expect(out).toContain('<link rel="stylesheet" href="/learn/assets/app.css"/>');
    expect(out).toContain("<p>Text</p>");
  });
});

describe("showOfflineState", () => {
  const page = `<div class="offline-banner" data-offline-banner="" hidden="" role="status">Offline</div>
<form method="post" data-offline-form="${A}"><button>Mark as done</button></form><p class="notice" data-offline-queued="${A}" hidden="">Waiting</p>
<form method="post" data-offline-form="${B}"><button>Mark as done</button></form><p data-offline-queued="${B}" hidden="">Waiting</p>`;

  it("reveals the notice, and for queued activities the note instead of the form", () => {
    const out = showOfflineState(page, [A]);
    expect(out).toContain('<div class="offline-banner" data-offline-banner="" role="status">');
    expect(out).toContain(`<form hidden method="post" data-offline-form="${A}">`);
    expect(out).toContain(`<p class="notice" data-offline-queued="${A}">Waiting</p>`);
    // Another activity stays as it was.
    expect(out).toContain(`<form method="post" data-offline-form="${B}">`);
    expect(out).toContain(`<p data-offline-queued="${B}" hidden="">`);
  });

  it("ignores what is not an activity id (no pattern injection)", () => {
    expect(showOfflineState(page, [".*"])).toBe(showOfflineState(page, []));
  });
});

describe("pageResources: what a kept page needs", () => {
  const url = "https://app.example/learn/courses/c/view/content?activityPathId=p";
  it("finds stylesheets, images, objects and downloads of this origin only", () => {
    const html = `<link rel="stylesheet" href="/learn/assets/app-1.css"><link rel="icon" href="/learn/favicon.svg">
      <img src="/learn/files/a1?name=pic.png&amp;w=2" alt=""><img src='https://cdn.example/x.png'>
      <object data="/learn/files/pdf1"></object><a href="/learn/files/doc1" download>Doc</a>
      <a href="/learn/courses/c">Course</a><img src="/learn/courses/c.data"><img src="/api/lms/v1/x">
      <source src="/learn/demo/media/v.mp4"><img src="data:image/png;base64,AAAA">`;
    const r = pageResources(html, url);
    expect(r.styles).toEqual(["/learn/assets/app-1.css"]);
    expect(r.files).toEqual([
      "/learn/files/a1?name=pic.png&w=2",
      "/learn/files/pdf1",
      "/learn/files/doc1",
      "/learn/demo/media/v.mp4",
    ]);
  });
});

describe("withSavedCourses", () => {
  const html = `<main><section class="offline__saved" data-offline-saved="" hidden=""><h2>Kept</h2><ul data-offline-saved=""></ul></section></main>`;
  it("fills and shows the list, names escaped", () => {
    const out = withSavedCourses(html, [{ courseId: A, name: "SQL <b>&</b>" }]);
    expect(out).toContain('<section class="offline__saved" data-offline-saved="">');
    expect(out).toContain(`<li><a href="/learn/courses/${A}" dir="auto">SQL &lt;b&gt;&amp;&lt;/b&gt;</a></li>`);
  });
  it("leaves the page as it is when nothing is kept", () => expect(withSavedCourses(html, [])).toBe(html));
});
