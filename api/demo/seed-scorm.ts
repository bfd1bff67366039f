/**
 * The demo's SCORM packages (issue 15 item 6): written by the project as source folders under
 * demo/scorm/, zipped and imported by the seed through the same import code as the CLI and the API.
 * demo/scorm/packages.json names each package's course folder (its root activity receives it).
 */
import { readFileSync } from "node:fs";
import type { FileStore } from "../files/object-store";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { importScormPackage } from "../scorm/import";
import { zipFolder } from "../scorm/zip-folder";
import { demoContent } from "./demo-content";
import type { Tx } from "./seed-activities";

const DIR = fileURLToPath(new URL("./data/scorm/", import.meta.url));

/** The demo packages by folder with their course folder. */
const DEMO_SCORM_PACKAGES = JSON.parse(readFileSync(`${DIR}packages.json`, "utf8")) as {
  course: string;
  package: string;
}[];

export async function seedScormPackages(tx: Tx, tenantId: string, store: FileStore): Promise<void> {
  const courses = demoContent().courses;
  for (const { course, package: folder } of DEMO_SCORM_PACKAGES) {
    const def = courses.find((c) => c.slug === course);
    if (!def) throw new Error(`api/demo/data/scorm/packages.json: unknown course folder "${course}"`);
    const zipPath = zipFolder(`${DIR}${folder}`);
    try {
      await importScormPackage(tx, { zipPath, store, tenantId, courseCode: def.code });
    } finally {
      rmSync(zipPath, { force: true });
    }
  }
}
