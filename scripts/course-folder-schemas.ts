/**
 * The course folder's published format (decisions 059 and 062, docs/course-folders.md): the JSON Schemas of
 * `course.json`, `content.json`, `catalog.json` and `media.json`, generated from the zod schemas the loader checks them with
 * (demo/content/schemas.ts). `npx tsx scripts/course-folder-schemas.ts` writes them to docs/schemas/;
 * tests/unit/course-folder-schemas.test.ts fails when they are not up to date.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { z } from "zod";
import { courseSchema, folderCatalogSchema, folderMediaSchema, rootSchema } from "../demo/content/schemas";

const DIR = fileURLToPath(new URL("../docs/schemas/", import.meta.url));

/** File name → its schema's text, as checked in. */
export async function courseFolderSchemas(): Promise<Record<string, string>> {
  const schema = async (title: string, s: z.ZodType) => {
    // What a file may say (the input side: names such as "lti", not the numbers they are read as).
    const json = z.toJSONSchema(s, {
      io: "input",
      unrepresentable: "any",
      target: "draft-2020-12",
      // The root's "must be absent" fields (they are course.json's): a schema nothing matches.
      override: (ctx) => {
        if ((ctx.zodSchema as { _zod: { def: { type: string } } })._zod.def.type === "undefined")
          ctx.jsonSchema.not = {};
      },
    });
    // As `npm run format` leaves it.
    return format(JSON.stringify({ title, ...json }), { ...(await resolveConfig(`${DIR}x.json`)), parser: "json" });
  };
  return {
    "course.schema.json": await schema("A course folder's course.json", courseSchema),
    "content.schema.json": await schema(
      "A course folder's content.json (the activity tree; the root is the course)",
      rootSchema,
    ),
    "catalog.schema.json": await schema(
      "A course folder's catalog.json (the grading scale, collections, terms and filter attributes it names)",
      folderCatalogSchema,
    ),
    "media.schema.json": await schema("A course folder's media.json (its files and LTI tools)", folderMediaSchema),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  for (const [name, text] of Object.entries(await courseFolderSchemas())) {
    writeFileSync(`${DIR}${name}`, text);
    console.log(`docs/schemas/${name}`);
  }
