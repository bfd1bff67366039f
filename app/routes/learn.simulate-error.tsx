import type { Route } from "./+types/learn.simulate-error";

/** /learn/simulate-error (spec 2.1): throws on purpose so the error boundary can be checked. */
export async function loader(_: Route.LoaderArgs): Promise<never> {
  throw new Error("Simulated error: /learn/simulate-error throws on purpose.");
}

export default function SimulateError() {
  return null;
}
