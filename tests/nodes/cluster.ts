/**
 * Two app processes, as in production, started at the same moment on one new, empty PostgreSQL
 * database, behind Debian's nginx with the configuration the project ships
 * (docs/nginx/learner-app.conf: round-robin, no stickiness), their files in a bucket of an
 * S3-compatible server (s3rver) — decisions 019 and 037.
 *
 * The nodes share one DATA_DIR that starts empty: no secrets.json is made for them. Whatever they
 * need to agree on (the provider's keys, the session secret) they find in the database.
 *
 * The test changes three things in the shipped nginx file: the two upstream addresses, the listen
 * address, and `proxy_pass`, which goes through a map so that a request with `x-node: A` or `B` is
 * pinned to that node (a test that proves "written on A, read on B" needs to choose); requests
 * without the header are round-robin. Every answer says which node served it in `x-served-by`.
 *
 * `playwright.nodes.config.ts` runs one cluster for the browser tests (the default export); the
 * restart tests (tests/postgres/proxy-restarts.test.ts) start their own with `startCluster`.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createPostgresDatabase } from "../fixtures/postgres-database";
import { startTestS3, type TestS3 } from "../fixtures/s3";

/** Node A, node B, the proxy (APP_URL), each node's metrics port and the bucket's server: ports 3520–3526. */
export const NODES_PORT = Number(process.env.NODES_PORT ?? 3520);
export const PORTS = {
  A: NODES_PORT,
  B: NODES_PORT + 1,
  balancer: NODES_PORT + 2,
  metricsA: NODES_PORT + 3,
  metricsB: NODES_PORT + 4,
  s3: NODES_PORT + 5,
} as const;
export type NodeName = "A" | "B";

const root = resolve(import.meta.dirname, "../..");
const NGINX_SITE = join(root, "docs/nginx/learner-app.conf");

/** Where Debian puts nginx; `.ci/run` installs it. */
export function nginxBinary(): string {
  for (const candidate of [process.env.NGINX_BIN, "/usr/sbin/nginx", "/usr/local/sbin/nginx"])
    if (candidate && existsSync(candidate)) return candidate;
  throw new Error("the two-node tests need nginx: apt-get install nginx (CI does), or set NGINX_BIN");
}

/** The shipped site file with this cluster's addresses, and the pinning map around it. */
export function nginxConfig(ports: { A: number; B: number; balancer: number }, prefix: string): string {
  const site = readFileSync(NGINX_SITE, "utf8");
  const replaced = site
    .replace("server 127.0.0.1:3000 ", `server 127.0.0.1:${ports.A} `)
    .replace("server 127.0.0.1:3001 ", `server 127.0.0.1:${ports.B} `)
    .replace("listen 80;", `listen 127.0.0.1:${ports.balancer};`)
    .replace("proxy_pass http://learner_app;", "proxy_pass http://$learner_pinned;");
  if (
    [ports.A, ports.B, ports.balancer].some((p) => !replaced.includes(`:${p}`)) ||
    !replaced.includes("$learner_pinned")
  )
    throw new Error(`${NGINX_SITE} no longer has the lines the test changes`);
  return `
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log info;
${process.getuid?.() === 0 ? "user root;" : ""}
events { worker_connections 1024; }
http {
  access_log ${prefix}/access.log;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  # Test only: x-node pins a request to a node; without it, the shipped round-robin upstream.
  map $http_x_node $learner_pinned { A learner_node_a; B learner_node_b; default learner_app; }
  upstream learner_node_a { server 127.0.0.1:${ports.A}; }
  upstream learner_node_b { server 127.0.0.1:${ports.B}; }
  map $upstream_addr $learner_served_by { "~:${ports.A}$" A; "~:${ports.B}$" B; default $upstream_addr; }
  add_header x-served-by $learner_served_by always;
${replaced}
}
`;
}

export interface ClusterNode {
  name: NodeName;
  port: number;
  metricsPort: number;
  log: string;
  child: ChildProcess;
}

export interface Cluster {
  appUrl: string;
  databaseUrl: string;
  dataDir: string;
  s3: TestS3;
  nodes: Record<NodeName, ClusterNode>;
  /** Starts node `name` (again), resolves when it is ready; `startupMs` is how long that took. */
  start(name: NodeName): Promise<{ startupMs: number }>;
  /** Sends a signal and resolves when the process has exited (with its exit code). */
  signal(name: NodeName, signal: NodeJS.Signals): Promise<number | null>;
  stop(): Promise<void>;
}

/** Waits for a node's readiness on its own port (as a load balancer would ask). */
async function waitUntilReady(node: ClusterNode, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (node.child.exitCode !== null)
      throw new Error(
        `node ${node.name} exited (${node.child.exitCode}):\n${readFileSync(node.log, "utf8").slice(-5000)}`,
      );
    try {
      const res = await fetch(`http://127.0.0.1:${node.port}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `node ${node.name} was not ready within ${timeoutMs / 1000} s:\n${readFileSync(node.log, "utf8").slice(-5000)}`,
  );
}

export async function startCluster(options: {
  databaseServer: string;
  ports: typeof PORTS;
  env?: Record<string, string>;
}): Promise<Cluster> {
  const { ports } = options;
  // A production build, whoever runs this: vitest sets NODE_ENV=test, which would build React's
  // development bundles (and the browser tests that run after it would use them).
  spawnSync(process.execPath, ["scripts/ensure-build.mjs"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  const database = await createPostgresDatabase(options.databaseServer, { empty: true });
  const dataDir = mkdtempSync(join(tmpdir(), "learner-nodes-"));
  const s3 = await startTestS3({ port: ports.s3 });
  const appUrl = `http://localhost:${ports.balancer}`;

  const prefix = join(dataDir, "nginx");
  spawnSync("mkdir", ["-p", prefix]);
  const conf = join(prefix, "nginx.conf");
  writeFileSync(conf, nginxConfig(ports, prefix));
  const nginx = spawn(nginxBinary(), ["-p", prefix, "-c", conf, "-g", "daemon off;"], {
    stdio: ["ignore", "inherit", "inherit"],
  });

  const nodes = {} as Record<NodeName, ClusterNode>;
  let run = 0;
  const spawnNode = (name: NodeName): ClusterNode => {
    const port = ports[name];
    const metricsPort = name === "A" ? ports.metricsA : ports.metricsB;
    const log = join(dataDir, `node-${name}-${++run}.log`);
    const out = createWriteStream(log);
    // One process per node, the compiled build `npm start` runs (built above; no transpiler in each
    // start and restart, decision 052), node itself with no wrapper: a signal reaches the server.
    const child = spawn(process.execPath, ["--expose-gc", "build/node/server.js"], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        APP_ENV: "test",
        E2E_FIXTURES: "1",
        PORT: String(port),
        APP_URL: appUrl,
        // The content origin (decision 040) through the same proxy under the other loopback name, as
        // a content host name would be in production: every node serves it on its own port (none apart).
        CONTENT_URL: `http://127.0.0.1:${ports.balancer}`,
        CONTENT_PORT: "0",
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        METRICS_PORT: String(metricsPort),
        // As in playwright.config.ts: on a shared machine the event-loop delay passes 1 s without load.
        OVERLOAD_MAX_DELAY_MS: "0",
        // nginx runs on this machine: each visitor counts by the address nginx forwards (decision 050).
        TRUST_PROXY: "loopback",
        ...s3.env,
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.pipe(out);
    child.stderr?.pipe(out);
    return (nodes[name] = { name, port, metricsPort, log, child });
  };

  const exited = (child: ChildProcess) =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve(child.exitCode)
      : new Promise<number | null>((r) => child.once("exit", (code) => r(code)));

  const cluster: Cluster = {
    appUrl,
    databaseUrl: database.url,
    dataDir,
    s3,
    nodes,
    async start(name) {
      const started = Date.now();
      await waitUntilReady(spawnNode(name));
      return { startupMs: Date.now() - started };
    },
    async signal(name, signal) {
      const { child } = nodes[name];
      if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(child.pid, signal);
      return exited(child);
    },
    async stop() {
      await Promise.all(
        Object.values(nodes).map(async ({ child }) => {
          if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(child.pid, "SIGTERM");
          await exited(child);
        }),
      );
      if (nginx.exitCode === null && nginx.pid) process.kill(nginx.pid, "SIGTERM");
      await exited(nginx);
      await s3.stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    // Both at the same moment, on the empty database and the empty data folder.
    spawnNode("A");
    spawnNode("B");
    await Promise.all([waitUntilReady(nodes.A), waitUntilReady(nodes.B)]);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

/** The browser tests' global setup (playwright.nodes.config.ts). */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) throw new Error("the two-node tests need PostgreSQL: set TEST_DATABASE_URL (npm test does)");
  const cluster = await startCluster({ databaseServer: server, ports: PORTS });
  // The tests read and write the database as an operator would (tests/nodes/two-nodes.spec.ts).
  process.env.NODES_DATABASE_URL = cluster.databaseUrl;
  process.env.NODES_DATA_DIR = cluster.dataDir;
  process.env.NODES_LOGS = Object.values(cluster.nodes)
    .map((n) => n.log)
    .join(",");
  process.env.NODES_S3 = JSON.stringify({ endpoint: cluster.s3.endpoint, bucket: cluster.s3.bucket });
  return () => cluster.stop();
}
