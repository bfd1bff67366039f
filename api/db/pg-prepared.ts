/**
 * Named prepared statements on PostgreSQL (DATABASE_URL), as the PGlite thread has had since decision
 * 012: each connection parses a repeated data statement once and, with `plan_cache_mode =
 * force_generic_plan`, plans it once, so a run is Bind–Execute. Without it PostgreSQL parsed and
 * planned My courses' page query on every request (parse 0.2 ms, bind with planning 0.9 ms, execute
 * 0.3 ms by `log_min_duration_statement`). Decision 038, addendum 4.
 *
 * Bounded both ways: a statement is named only from its second sighting in this process (a filter
 * shape used once is never prepared), and a connection keeps at most `perConnection` of them; past
 * that, new statements run unnamed as before. Connections are recycled by the pool (`maxUses`,
 * idle time-out), which starts their set afresh.
 */
import { createHash } from "node:crypto";
import type pg from "pg";

/** Data statements only: DDL, `set`, `listen`, transaction control and advisory locks stay unnamed. */
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with|values)\b/i;

export interface PreparedStatementsOptions {
  /** Named statements one connection keeps at most. */
  perConnection: number;
  /** Distinct statement texts this process remembers having seen (then it starts over). */
  remembered?: number;
}

interface QueryConfigLike {
  text?: unknown;
  name?: unknown;
  submit?: unknown;
}

/**
 * A `pg.Client` class whose data statements run as named prepared statements (for `pg.Pool`'s
 * `Client` option). The name is a digest of the text, so every connection and node names a statement
 * alike and two texts never share a name.
 */
export function preparingClient(Base: typeof pg.Client, options: PreparedStatementsOptions): typeof pg.Client {
  const remembered = options.remembered ?? 2000;
  // Text → its name once seen twice (null after the first sighting).
  const seen = new Map<string, string | null>();
  const nameOf = (text: string): string | null => {
    const known = seen.get(text);
    if (known !== undefined) {
      if (known !== null) return known;
      const name = `s_${createHash("sha1").update(text).digest("base64url")}`;
      seen.set(text, name);
      return name;
    }
    if (seen.size >= remembered) seen.clear();
    seen.set(text, null);
    return null;
  };

  class PreparingClient extends Base {
    /** Named statements this connection has been given. */
    private named = new Set<string>();

    /** The name a data statement runs under here, or null (unseen before, or no room left). */
    private nameFor(text: string): string | null {
      if (!DATA_STATEMENT.test(text)) return null;
      const name = nameOf(text);
      if (name === null || (!this.named.has(name) && this.named.size >= options.perConnection)) return null;
      this.named.add(name);
      return name;
    }

    override query(...args: unknown[]): never {
      const config = args[0] as QueryConfigLike | null;
      if (typeof config === "string") {
        const name = this.nameFor(config);
        if (name) args[0] = { text: config, name };
      } else if (
        config !== null &&
        typeof config === "object" &&
        typeof config.text === "string" &&
        // Unnamed: no name, or drizzle's `prepare("")` (a statement built once, run unnamed by pg).
        !config.name &&
        typeof config.submit !== "function"
      ) {
        const name = this.nameFor(config.text);
        if (name) args[0] = { ...config, name };
      }
      return (super.query as (...a: unknown[]) => never)(...args);
    }
  }
  return PreparingClient as unknown as typeof pg.Client;
}

/** Statement settings of `DATABASE_URL` connections: from `PG_PREPARED_STATEMENTS` and `PG_PLAN_CACHE_MODE`. */
export function preparedStatementsFromEnv(env: NodeJS.ProcessEnv = process.env): {
  prepared: PreparedStatementsOptions | null;
  planCacheMode: "auto" | "force_generic_plan" | "force_custom_plan";
} {
  // 0 turns naming off: a pooler in transaction mode (PgBouncer before 1.21) cannot keep them.
  const raw = env.PG_PREPARED_STATEMENTS?.trim();
  const perConnection = raw === undefined || raw === "" ? 200 : Number(raw);
  if (!Number.isInteger(perConnection) || perConnection < 0)
    throw new Error(`PG_PREPARED_STATEMENTS must be a whole number ≥ 0 (0: none), not "${raw}"`);
  const mode = env.PG_PLAN_CACHE_MODE?.trim() || "force_generic_plan";
  if (mode !== "auto" && mode !== "force_generic_plan" && mode !== "force_custom_plan")
    throw new Error(`PG_PLAN_CACHE_MODE must be auto, force_generic_plan or force_custom_plan, not "${mode}"`);
  return { prepared: perConnection > 0 ? { perConnection } : null, planCacheMode: mode };
}
