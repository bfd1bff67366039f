/**
 * The app's port and the content origin's, with the operations around them: health checks, request
 * ids, metrics and a log line per request, drained on SIGTERM (decision 037).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { markAwaitingContinue } from "./http/front";
import { listenShared, reusePortSupported } from "./operations/listeners";
import type { createOperations } from "./operations/operations";
import { flushLogs, rootLog } from "../app/services/logger.server";
import type { ServerConfig } from "./config";

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

export function listen(
  config: ServerConfig,
  operations: ReturnType<typeof createOperations>,
  front: { handle: NodeHandler; serveContent: NodeHandler },
  /** Printed once the port is open: the log's first line and, with the demo, its way in. */
  announce: { fields: Record<string, unknown>; demoHint: string | null },
): void {
  const serve = operations.serve(front.handle);
  const server = createServer(serve);
  // A client that sends `Expect: 100-continue` gets the 100 when its handler first reads the body, so
  // a body refused before it is read (401, 403, 413, 429) is never sent at all.
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    markAwaitingContinue(req);
    serve(req, res);
  });
  if (config.listen.sockets > 1 && !reusePortSupported())
    rootLog.warn(
      { node: process.versions.node, sockets: config.listen.sockets },
      "this Node cannot share the port between sockets (reusePort needs Node 22.12 or later): one listening socket; npm start runs the project's Node",
    );
  // Many listening sockets and a long accept queue, so a node at capacity still accepts and can answer
  // or refuse a burst's connections at once (decision 038).
  listenShared(server, { port: config.port, backlog: config.listen.backlog, count: config.listen.sockets }).then(
    () => {
      rootLog.info(announce.fields, "learner app listening");
      if (announce.demoHint) {
        // After the log's buffered lines, which are written asynchronously: the last line `npm start` prints.
        flushLogs();
        console.log(announce.demoHint);
      }
    },
    (error: NodeJS.ErrnoException) => {
      rootLog.fatal(
        { port: config.port, error: error.code ?? error.message },
        "the app cannot listen on its port (PORT)",
      );
      process.exit(1);
    },
  );

  // The content origin's own port (decision 040): nothing but the launcher and the packages' files.
  const contentPort = config.content.port;
  if (contentPort !== null) {
    const contentServer = createServer(operations.serve(front.serveContent));
    contentServer.on("error", (error: NodeJS.ErrnoException) => {
      rootLog.fatal(
        { port: contentPort, error: error.code ?? error.message },
        "the content origin cannot listen: set CONTENT_URL or CONTENT_PORT (docs/configuration.md)",
      );
      process.exit(1);
    });
    contentServer.listen(contentPort, () =>
      rootLog.info({ url: config.content.url }, "content origin (SCORM packages) listening"),
    );
    // Draining takes no new connection on the content port either; the app port's drain ends the process.
    for (const signal of ["SIGINT", "SIGTERM"] as const)
      process.once(signal, () => {
        contentServer.close();
        contentServer.closeIdleConnections();
      });
  }
  operations.start(server);
}
