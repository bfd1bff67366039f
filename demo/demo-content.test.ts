import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadDemoContent } from "./demo-content";
import { DEMO_DIR, DemoContentError, readHtml } from "./content/files";
import {
  ActivityContentType,
  ActivityKind,
  ActivityType,
  ObjectiveState,
  ObjectiveWorkflowState,
  PresentationMode,
} from "../domain/vocabulary";

describe("the demo content (demo/data/)", () => {
  const content = loadDemoContent();

  it("loads every file: 44 courses, the demo accounts, five learners' recipes, ada's mini-group and questions", () => {
    expect(content.courses).toHaveLength(44);
    expect(Object.keys(content.users)).toEqual(["ada", "grace", "admin", "rita", "katherine", "margaret"]);
    expect(content.tenant.groups).toEqual([
      expect.objectContaining({ kind: "miniGroup", members: ["ada", "grace", "katherine", "margaret"] }),
      // Issue 15 item 7: a team for the team assignment of one of her courses (decision 026).
      expect.objectContaining({
        kind: "team",
        members: ["ada", "grace", "katherine"],
        course: "python-basics",
        activity: "Team assignment: review a chart together",
      }),
    ]);
    expect(content.learners.ada.reinforcement).toEqual([{ course: "python-basics", dueIn: -1 }]);
    expect(content.reinforcement["python-basics"].length).toBeGreaterThanOrEqual(3);
    expect(Object.keys(content.learners).sort()).toEqual(["ada", "admin", "grace", "katherine", "margaret"]);
    expect(content.learners.ada.enrolments).toHaveLength(20);
    expect(content.tenant.domain).toBe("demo.local");
  });

  it("reads the vocabulary's names as its numbers", () => {
    const python = content.courses.find((c) => c.slug === "python-basics")!;
    expect(python).toMatchObject({
      code: "PY-101",
      state: ObjectiveState.ready,
      kind: ActivityKind.composite,
      type: ActivityType.Composite,
      presentationMode: PresentationMode.Tree,
    });
    expect(python.root.kind).toBe(ActivityKind.composite);
    const handbook = python.root.children![0].children![1];
    expect(handbook).toMatchObject({ kind: ActivityKind.text, contentType: ActivityContentType.PublicFile });
    const privacy = content.learners.ada.enrolments.find((e) => e.course === "privacy-exam")!;
    expect(privacy.attempts![0].state).toBe(ObjectiveWorkflowState.inProgress);
  });

  it("applies the authoring defaults: a text's type and reading time, an event's length", () => {
    const python = content.courses.find((c) => c.slug === "python-basics")!;
    const welcome = python.root.children![0].children![0];
    expect(welcome).toMatchObject({ type: ActivityType.RichText, contentType: ActivityContentType.Text });
    expect(String(welcome.content.html)).toMatch(/^<h2>Welcome to Python for Data Analysis<\/h2><p>/);
    expect(welcome.duration! % 60).toBe(0);
    expect(welcome.duration).toBeGreaterThanOrEqual(120);
    const assignment = python.root.children![6].children![1];
    expect(assignment).toMatchObject({ manualGrading: true, type: ActivityType.Assignment });
    const qa = python.root.children![7].children![0];
    expect(qa).toMatchObject({ kind: ActivityKind.event, duration: 3600, type: ActivityType.Classroom });
  });

  it("joins an HTML file's lines that break between two tags, and keeps the others", () => {
    const dir = mkdtempSync(join(tmpdir(), "demo-html-"));
    try {
      const file = join(dir, "x.html");
      writeFileSync(
        file,
        "<h2>Title</h2>\n<ul>\n  <li>One</li>\n  <li>Two</li>\n</ul>\n<pre><code>a = 1\n\nb = 2</code></pre>\n",
      );
      expect(readHtml(file, file, "html")).toBe(
        "<h2>Title</h2><ul><li>One</li><li>Two</li></ul><pre><code>a = 1\n\nb = 2</code></pre>",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a mistake in a data file fails loudly, naming the file and the field", () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  /** A copy of the demo content with one file changed. */
  function broken(file: string, change: (text: string) => string): string {
    dir = mkdtempSync(join(tmpdir(), "demo-content-"));
    cpSync(DEMO_DIR, dir, { recursive: true });
    const path = join(dir, file);
    const before = readFileSync(path, "utf8");
    const after = change(before);
    expect(after, `the change to ${file} changed nothing`).not.toBe(before);
    writeFileSync(path, after);
    return dir;
  }
  const edit = (file: string, from: string, to: string) => broken(file, (text) => text.replace(from, to));
  const expectError = (root: string, message: RegExp) => {
    expect(() => loadDemoContent(root)).toThrow(DemoContentError);
    expect(() => loadDemoContent(root)).toThrow(message);
  };

  it("an unknown term", () => {
    expectError(
      edit("courses/python-basics/course.json", '"term": "spring2026"', '"term": "sprng2026"'),
      /courses\/python-basics\/course\.json: access\.term: unknown term "sprng2026" \(terms of catalog\.json: spring2026, /,
    );
  });

  it("a bare number where the vocabulary has a name", () => {
    expectError(
      edit("courses/ml-intro/course.json", '"kind": "lti"', '"kind": 2'),
      /courses\/ml-intro\/course\.json: kind: kind must be one of text, lti, composite, event, video, discussion/,
    );
    expectError(
      edit("learners/ada.json", '"state": "inProgress"', '"state": 1'),
      /learners\/ada\.json: enrolments\[2\]\.attempts\[0\]\.state: state must be one of inProgress, /,
    );
  });

  it("a misspelt field", () => {
    expectError(
      edit("courses/python-basics/course.json", '"presentationMode"', '"presentationMod"'),
      /courses\/python-basics\/course\.json: .*presentationMod/,
    );
  });

  it("a file that is not JSON", () => {
    expectError(
      broken("courses/data-viz/content.json", (text) => text.replace(/}\s*$/, "")),
      /courses\/data-viz\/content\.json: not valid JSON/,
    );
  });

  it("a text whose HTML file is missing", () => {
    expectError(
      edit(
        "courses/python-basics/content.json",
        "texts/welcome-to-python-for-data-analysis.html",
        "texts/welcome.html",
      ),
      /courses\/python-basics\/content\.json: children\[0\]\.children\[0\]\.html: .*texts\/welcome\.html not found/,
    );
  });

  it("an LTI activity without its type, a field another kind uses, a video without its length, an unknown file", () => {
    expectError(
      edit("courses/git-workflows/content.json", '"type": "CodingLabs", ', ""),
      /courses\/git-workflows\/content\.json: children\[3\]\.type: an activity of kind lti needs a type/,
    );
    expectError(
      edit("courses/git-workflows/content.json", '"vimeoId": "76979871"', '"vimeoId": "76979871", "prompt": "Hi"'),
      /courses\/git-workflows\/content\.json: children\[2\]\.prompt: not used by an activity of kind video/,
    );
    expectError(
      edit("courses/git-workflows/content.json", '"vimeoId": "76979871", "duration": 62', '"vimeoId": "76979871"'),
      /courses\/git-workflows\/content\.json: children\[2\]\.duration: a video needs its length in seconds/,
    );
    expectError(
      edit("courses/python-basics/content.json", '"file": "handbook"', '"file": "handbok"'),
      /content\.json: children\[0\]\.children\[1\]\.file: unknown file "handbok"/,
    );
  });

  it("unknown references: collection, attribute, course of a recipe, demo user", () => {
    expectError(
      edit("courses/python-basics/course.json", '"dataAi"', '"dataAI"'),
      /course\.json: collections\[0\]: unknown collection "dataAI"/,
    );
    expectError(
      edit("courses/python-basics/course.json", '"Beginner"', '"Novice"'),
      /course\.json: attributes\[0\]: unknown attribute "Novice"/,
    );
    expectError(
      edit("learners/grace.json", '"course": "leading-teams"', '"course": "leading-team"'),
      /learners\/grace\.json: enrolments\[1\]\.course: unknown course "leading-team"/,
    );
    // A group's course and a team's activity (decision 026).
    expectError(
      edit("tenant.json", '"course": "python-basics"', '"course": "python-basic"'),
      /tenant\.json: groups\[1\]\.course: unknown course "python-basic"/,
    );
    // Spec 3 widgetSettings of the demo (decision 028): a course of the catalog, with its tutor on.
    expectError(
      edit("tenant.json", '{ "course": "python-basics", "initialExpanded"', '{ "course": "python", "initialExpanded"'),
      /tenant\.json: tutorWidget\[0\]\.course: unknown course "python"/,
    );
    expectError(
      edit(
        "tenant.json",
        '{ "course": "python-basics", "initialExpanded"',
        '{ "course": "git-workflows", "initialExpanded"',
      ),
      /tenant\.json: tutorWidget\[0\]\.course: the course's tutor is off/,
    );
    expectError(
      edit("tenant.json", '"activity": "Team assignment: review a chart together"', '"activity": "Team chart"'),
      /tenant\.json: groups\[1\]\.activity: no activity "Team chart" in the course/,
    );
    dir = mkdtempSync(join(tmpdir(), "demo-content-"));
    cpSync(DEMO_DIR, dir, { recursive: true });
    cpSync(join(dir, "learners/grace.json"), join(dir, "learners/linus.json"));
    expectError(dir, /learners\/linus\.json: not a demo user's recipe/);
  });

  it("a course folder missing from catalog.json, and a listed one that does not exist", () => {
    expectError(
      edit("catalog.json", '"mentoring-circle"', '"mentoring"'),
      /catalog\.json: courses: the folder courses\/mentoring-circle is not listed/,
    );
  });

  it("a file whose recorded size is not the file's", () => {
    expectError(
      edit("media.json", '"size": 18656,\n      "pages"', '"size": 18000,\n      "pages"'),
      /media\.json: files\.handbook\.size: is 18000, the file has 18656 bytes/,
    );
  });
});
