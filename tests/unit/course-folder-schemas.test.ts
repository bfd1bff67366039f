import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import Ajv2020 from "ajv/dist/2020";
import { DEMO_DIR } from "../../demo/content/files";
import { courseFolderSchemas } from "../../scripts/course-folder-schemas";

/**
 * Decision 059: the course folder's published JSON Schemas (docs/schemas/) are what the loader's zod
 * schemas say — regenerated with `npx tsx scripts/course-folder-schemas.ts` — and every demo course
 * folder is valid by them, so a team that checks its folders with the published schema checks what
 * the import accepts.
 */
const SCHEMAS = join(import.meta.dirname, "../../docs/schemas");

describe("the course folder's JSON Schemas", () => {
  let generated: Record<string, string> = {};
  beforeAll(async () => {
    generated = await courseFolderSchemas();
  });

  it.each(["course.schema.json", "content.schema.json"])("docs/schemas/%s is up to date", (name) => {
    expect(readFileSync(join(SCHEMAS, name), "utf8"), "run npx tsx scripts/course-folder-schemas.ts").toBe(
      generated[name],
    );
  });

  it("accepts every demo course folder and refuses a misspelt field", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    const course = ajv.compile(JSON.parse(generated["course.schema.json"]!));
    const content = ajv.compile(JSON.parse(generated["content.schema.json"]!));
    const courses = join(DEMO_DIR, "courses");
    const folders = readdirSync(courses);
    expect(folders.length).toBeGreaterThan(10);
    for (const folder of folders) {
      const read = (file: string) => JSON.parse(readFileSync(join(courses, folder, file), "utf8")) as unknown;
      expect(course(read("course.json")), `${folder}/course.json ${ajv.errorsText(course.errors)}`).toBe(true);
      expect(content(read("content.json")), `${folder}/content.json ${ajv.errorsText(content.errors)}`).toBe(true);
    }
    const python = JSON.parse(readFileSync(join(courses, "python-basics", "course.json"), "utf8")) as object;
    expect(course({ ...python, nmae: "typo" })).toBe(false);
    expect(content({ kind: "composite", children: [{ name: "A", kind: "text", html: "a.html", stat: "draft" }] })).toBe(
      false,
    );
  });
});
