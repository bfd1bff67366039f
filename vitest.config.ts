import { defineConfig } from "vitest/config";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

const ALL = [
  "{app,api,identity,demo,domain,server,ops,tests/unit,tests/integration,tests/conformance,scripts}/**/*.test.{ts,tsx}",
];
/**
 * Tests that touch the database: the API integration suite and the API's own tests, and the tests
 * of several nodes on one server, which need PostgreSQL (docs/postgres-tests.md).
 */
const DATABASE = ["tests/integration/**/*.test.ts", "{api,identity,demo}/**/*.test.ts", "tests/postgres/**/*.test.ts"];
/** What only PGlite has: its worker thread and its data directory lock, a killed process on its files. */
const PGLITE_ONLY = ["tests/integration/pglite-thread.test.ts", "tests/integration/crash-submit.test.ts"];
/** A PostgreSQL server (CI; `npm test` where PostgreSQL is installed): the database tests run on it too. */
const postgres = process.env.TEST_DATABASE_URL;

const test = {
  environment: "node",
  pool: "forks",
  // Vitest's default keeps one core free (cores − 1): one worker on a 2-core machine, and the suite's
  // waits (servers starting, restarts, timers) then run one after another. One per core: 896 → 619 s
  // on this 2-core box with PostgreSQL (docs/decisions/046-test-time.md).
  maxWorkers: availableParallelism(),
  // As the browser suites (playwright.config.ts): in CI a failed test runs once more, since files now
  // share the cores and a few tests measure time (overload, idle threads, restarts). The report marks a
  // retried pass "(retry x1)".
  retry: process.env.CI ? 1 : 0,
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // A migrated PGlite dump that every in-memory test database starts from (tests/fixtures/pglite-snapshot.ts).
  globalSetup: ["tests/fixtures/global-setup.ts"] as string[],
} as const;

export default defineConfig({
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "#domain": fileURLToPath(new URL("./domain", import.meta.url)),
    },
  },
  test: postgres
    ? {
        ...test,
        projects: [
          { extends: true, test: { ...test, name: "pglite", include: ALL, provide: { testDatabaseUrl: "" } } },
          {
            extends: true,
            test: {
              ...test,
              name: "postgres",
              include: DATABASE,
              exclude: PGLITE_ONLY,
              provide: { testDatabaseUrl: postgres },
            },
          },
        ],
      }
    : { ...test, include: ALL },
});
