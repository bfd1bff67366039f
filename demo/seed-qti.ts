/**
 * The demo's QTI tests and surveys (decision 055): written by the project as package folders under
 * data/qti/, read by the seed through the same code as the CLI and the API (no zip: the folder's files).
 * data/qti/packages.json names each package's course folder and, for an activity inside the course, its
 * name (the root activity otherwise), and the learners who take it in the seed (`takenBy`).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import * as s from "../api/db/schema";
import { readQtiFiles, storeQtiPackage } from "../api/assessment/import";
import { demoContent } from "./demo-content";
import type { Tx } from "./seed-activities";
import { takeTest } from "./seed-qti-attempts";

const DIR = fileURLToPath(new URL("./data/qti/", import.meta.url));

const packagesSchema = z.array(
  z.object({
    course: z.string(),
    package: z.string(),
    activity: z.string().optional(),
    title: z.string().optional(),
    cut: z.number().min(0).max(1).optional(),
    survey: z.boolean().optional(),
    anonymous: z.boolean().optional(),
    /** Learners who take it in the seed, through the API's delivery (demo/seed-qti-attempts.ts). */
    takenBy: z.array(z.object({ learner: z.string(), essays: z.record(z.string(), z.string()).optional() })).optional(),
  }),
);

function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesOf(full) : [full];
  });
}

export async function seedQtiPackages(tx: Tx, tenantId: string, userIds: Record<string, string> = {}): Promise<void> {
  const { courses } = demoContent();
  const packages = packagesSchema.parse(JSON.parse(readFileSync(join(DIR, "packages.json"), "utf8")));
  for (const p of packages) {
    const def = courses.find((c) => c.slug === p.course);
    if (!def) throw new Error(`data/qti/packages.json: unknown course folder "${p.course}"`);
    const folder = join(DIR, p.package);
    const files = new Map(
      filesOf(folder).map((f) => [relative(folder, f).split(sep).join("/"), async () => readFileSync(f)] as const),
    );
    let activityId: string | undefined;
    if (p.activity) {
      const [row] = await tx
        .select({ id: s.activities.id })
        .from(s.activities)
        .innerJoin(s.activityParts, eq(s.activityParts.activityId, s.activities.id))
        .innerJoin(s.objectives, eq(s.objectives.id, s.activityParts.objectiveId))
        .where(
          and(eq(s.objectives.code, def.code), eq(s.objectives.tenantId, tenantId), eq(s.activities.name, p.activity)),
        )
        .limit(1);
      if (!row) throw new Error(`data/qti/packages.json: no activity "${p.activity}" in ${p.course}`);
      activityId = row.id;
    }
    const content = await readQtiFiles(files, p.title ?? def.code);
    const stored = await storeQtiPackage(tx, content, {
      tenantId,
      courseCode: def.code,
      activityId,
      title: p.title,
      cutValue: p.cut ?? null,
      survey: p.survey ?? false,
      anonymous: p.anonymous ?? false,
    });
    for (const taken of p.takenBy ?? []) {
      const userId = userIds[taken.learner];
      if (userId) await takeTest(tx, stored, taken, userId, new Date());
    }
  }
}
