/**
 * The demo's SCORM packages (issue 15 item 6): written by the project as source folders under
 * data/scorm/, zipped and imported by the seed through the same import code as the CLI and the API.
 * data/scorm/packages.json names each package's course folder (its root activity receives it); the
 * demo content reads and checks it (demo-content.ts), so a learner recipe can resume a package's SCOs.
 */
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { FileStore } from "../api/files/object-store";
import { importScormPackage } from "../api/scorm/import";
import { zipFolder } from "../api/scorm/zip-folder";
import { demoContent } from "./demo-content";
import type { Tx } from "./seed-activities";

const DIR = fileURLToPath(new URL("./data/scorm/", import.meta.url));

export async function seedScormPackages(tx: Tx, tenantId: string, store: FileStore): Promise<void> {
  const { courses, scormPackages } = demoContent();
  for (const { course, folder } of scormPackages) {
    const def = courses.find((c) => c.slug === course)!;
    const zipPath = zipFolder(`${DIR}${folder}`);
    try {
      await importScormPackage(tx, { zipPath, store, tenantId, courseCode: def.code });
    } finally {
      rmSync(zipPath, { force: true });
    }
  }
}
