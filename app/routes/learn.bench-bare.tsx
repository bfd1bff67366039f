import type { Route } from "./+types/learn.bench-bare";
import { state } from "~/services/request.server";

/**
 * /learn/bench-bare: the benchmark's baseline (bench/run.ts). The same work as every learner page
 * minus the page itself — session, shell and root layout — so the bench can compare My courses and
 * the catalog with it. It exists only when the server runs with BENCH_BARE=1; elsewhere it is 404.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const s = state(context);
  if (!s.config.benchBare) throw new Response("Not found", { status: 404 });
  await s.requireLearner();
  return null;
}

export default function BenchBare() {
  return <h1>Bench</h1>;
}
