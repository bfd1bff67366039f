/**
 * The two-node browser tests' global setup (playwright.nodes.config.ts, decision 019): two app
 * processes, as in production, started together on one new, empty PostgreSQL database, behind a
 * small balancer on APP_URL's port. The balancer sends a request to node A or B by its `x-node`
 * header (a test sets it on its browser context; requests without it, such as the sign-in's token
 * exchange between the app and the provider, go to A) and names the node that answered in
 * `x-served-by`. The nodes share DATA_DIR (its `secrets.json`: the provider's signing and cookie
 * keys, the session secret), as the README asks of every node.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadSecrets } from "../../api/runtime";
import { createPostgresDatabase } from "../fixtures/postgres-database";

export const NODES_PORT = Number(process.env.NODES_PORT ?? 3262);
/** Node A, node B, the balancer (APP_URL) and the content origin. */
export const PORTS = { A: NODES_PORT, B: NODES_PORT + 1, balancer: NODES_PORT + 2, content: NODES_PORT + 3 } as const;
export type NodeName = "A" | "B";

const root = resolve(import.meta.dirname, "../..");

function balancer(): Promise<Server> {
  const server = createServer((req, res) => {
    const name: NodeName = req.headers["x-node"] === "B" ? "B" : "A";
    const upstream = httpRequest(
      { host: "127.0.0.1", port: PORTS[name], method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, "x-served-by": name });
        answer.pipe(res);
      },
    );
    upstream.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`node ${name}: ${error.message}`);
    });
    req.pipe(upstream);
  });
  return new Promise((ok, fail) => {
    server.on("error", fail);
    server.listen(PORTS.balancer, "127.0.0.1", () => ok(server));
  });
}

async function waitUntilServing(name: NodeName, child: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`node ${name} exited (${child.exitCode}):\n${readFileSync(log, "utf8")}`);
    try {
      const res = await fetch(`http://localhost:${PORTS.balancer}/config-ui/config.json`, {
        headers: { "x-node": name },
      });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`node ${name} did not start within 240 s:\n${readFileSync(log, "utf8")}`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) throw new Error("the two-node tests need PostgreSQL: set TEST_DATABASE_URL (npm test does)");
  spawnSync(process.execPath, ["scripts/ensure-build.mjs"], { cwd: root, stdio: "inherit" });

  const database = await createPostgresDatabase(server, { empty: true });
  const dataDir = mkdtempSync(join(tmpdir(), "learner-nodes-"));
  // One secrets.json for both, as a deployment copies it to every node.
  await loadSecrets(dataDir);
  const proxy = await balancer();
  const appUrl = `http://localhost:${PORTS.balancer}`;
  const nodes = (["A", "B"] as const).map((name) => {
    const log = join(dataDir, `node-${name}.log`);
    const out = createWriteStream(log);
    const child = spawn(join(root, "node_modules/.bin/tsx"), ["server.ts"], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        APP_ENV: "test",
        E2E_FIXTURES: "1",
        PORT: String(PORTS[name]),
        APP_URL: appUrl,
        // One content origin for the cluster (decision 040), served here by node A (CONTENT_PORT 0: none).
        CONTENT_URL: `http://127.0.0.1:${PORTS.content}`,
        CONTENT_PORT: name === "A" ? String(PORTS.content) : "0",
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.pipe(out);
    child.stderr?.pipe(out);
    return { name, child, log };
  });
  const stop = async () => {
    for (const { child } of nodes) if (child.exitCode === null && child.pid) process.kill(child.pid, "SIGTERM");
    await Promise.all(
      nodes.map(({ child }) => (child.exitCode === null ? new Promise((r) => child.once("exit", r)) : null)),
    );
    await new Promise((r) => proxy.close(r));
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await Promise.all(nodes.map(({ name, child, log }) => waitUntilServing(name, child, log)));
  } catch (error) {
    await stop();
    throw error;
  }
  // The tests read and write the database as an operator would (tests/nodes/two-nodes.spec.ts).
  process.env.NODES_DATABASE_URL = database.url;
  process.env.NODES_LOGS = nodes.map((n) => n.log).join(",");
  return stop;
}
