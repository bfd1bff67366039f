/**
 * An experiment of decision 031, not the way to run the product: `server.ts` as the one worker of a
 * `node:cluster` primary with round-robin scheduling, so that connections are accepted by a process
 * whose event loop does nothing else and handed to the worker over IPC. One worker only: PGlite
 * holds its data directory alone. `npm run bench:overload -- --cluster` starts the server this way.
 */
import cluster from "node:cluster";
import { resolve } from "node:path";

cluster.schedulingPolicy = cluster.SCHED_RR;
cluster.setupPrimary({ exec: resolve("server.ts"), execArgv: ["--import", "tsx"] });
const worker = cluster.fork();
worker.on("exit", (code, signal) => {
  console.log(`[cluster] worker exited (code ${code}, signal ${signal})`);
  process.exit(code ?? 1);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    worker.kill(signal);
  });
}
