import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { readQtiFiles } from "../api/assessment/import";
import { correctResponses, itemMaxScore, scoreItem } from "../domain/qti/processing";
import { planAttempt, scoreTest } from "../domain/qti/test";

const DIR = "demo/data/qti";
const packages = JSON.parse(readFileSync(join(DIR, "packages.json"), "utf8")) as { package: string }[];

function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) =>
    statSync(join(dir, name)).isDirectory() ? filesOf(join(dir, name)) : [join(dir, name)],
  );
}

describe("the demo's QTI packages (issue 48)", () => {
  it.each(packages.map((p) => p.package))(
    "%s: read by the import; its correct responses score the maximum",
    async (name) => {
      const folder = join(DIR, name);
      const files = new Map(
        filesOf(folder).map((f) => [relative(folder, f).split(sep).join("/"), async () => readFileSync(f)]),
      );
      const { test, items } = await readQtiFiles(files, name);
      const plan = planAttempt(test, "demo");
      const results = plan.pages
        .flatMap((p) => p.items)
        .map((p) => {
          const item = items.get(p.href)!;
          const outcome = scoreItem(item, correctResponses(item));
          if (!item.needsPerson && item.responses.some((r) => r.correct.length > 0))
            expect(outcome.score, p.ref).toBe(itemMaxScore(item));
          if (item.needsPerson)
            outcome.vars.set("SCORE", { cardinality: "single", baseType: "float", values: [itemMaxScore(item)] });
          return {
            identifier: p.ref,
            weights: p.weights,
            categories: p.categories,
            sections: p.sections,
            vars: outcome.vars,
            maxScore: itemMaxScore(item),
            presented: true,
            responded: true,
            correct: true,
          };
        });
      const outcome = scoreTest(test, results, null);
      expect(outcome.score).toBe(outcome.maxScore);
      if (outcome.passed !== null) expect(outcome.passed).toBe(true);
    },
  );
});
