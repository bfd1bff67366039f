/**
 * Several listening sockets on the app's one port, all feeding the one HTTP server (decision 038,
 * addendum 13).
 *
 * libuv accepts at most one connection per listening socket per turn of the event loop. A node at
 * its capacity turns its loop 2–3 times a second (each turn handles hundreds of ready connections),
 * so connections that arrived together waited in the kernel's accept queue for many seconds — their
 * requests unseen by the overload control, neither served nor refused. With `count` sockets bound to
 * the port with SO_REUSEPORT, the kernel spreads new connections over them and each turn accepts up
 * to `count`.
 *
 * SO_REUSEPORT would also let a second process of the same user bind the port and silently take half
 * of the connections, so the port is first bound alone for a moment: a node started twice on one port
 * still fails at once with EADDRINUSE. A worker of `node:cluster` listens once, as before: its primary
 * accepts the connections and hands them over.
 */
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from "node:net";
import type { Server } from "node:http";
import cluster from "node:cluster";

export interface ListenOptions {
  port: number;
  host?: string;
  backlog: number;
  /** Listening sockets on the port; 1 is a plain `listen`. */
  count: number;
}

const listenOnce = (server: NetServer, options: object) =>
  new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once("error", failed);
    server.listen(options, () => {
      server.off("error", failed);
      resolve();
    });
  });

const closeOnce = (server: NetServer) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * Whether this Node can bind several sockets to one port (`reusePort`: Node 22.12 and 23.1 on). An older
 * Node given `reusePort` binds the first socket alone and refuses the second with EADDRINUSE, as if the
 * port were taken: `npm start` runs the project's own Node, but a hand-started `node build/node/server.js`
 * may find the machine's.
 */
export function reusePortSupported(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major > 23 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12);
}

/**
 * Listens `server` on `port` through `count` sockets (one on a Node without `reusePort`). The extra sockets hand their connections to
 * `server` (its `connection` event, as Node documents for injecting connections), and close when
 * `server.close()` is called. Rejects as `listen` would (EADDRINUSE, EACCES).
 */
export async function listenShared(server: Server, options: ListenOptions): Promise<void> {
  const { port, host, backlog, count } = options;
  // A worker of `node:cluster` listens through its primary, which accepts for it.
  if (count <= 1 || cluster.isWorker || !reusePortSupported()) return listenOnce(server, { port, host, backlog });
  if (port !== 0) {
    // The port must be free: bound without SO_REUSEPORT, it refuses any other socket for a moment.
    const probe = createNetServer();
    await listenOnce(probe, { port, host, exclusive: true });
    await closeOnce(probe);
  }
  await listenOnce(server, { port, host, backlog, reusePort: true });
  // Port 0: the others join the port the system chose for the first.
  const shared = { port: (server.address() as AddressInfo).port, host, backlog, reusePort: true };
  const acceptors: NetServer[] = [];
  try {
    for (let i = 1; i < count; i++) {
      // noDelay as the HTTP server sets it on the connections it accepts itself.
      const acceptor = createNetServer({ noDelay: true }, (socket) => server.emit("connection", socket));
      await listenOnce(acceptor, shared);
      acceptors.push(acceptor);
    }
  } catch (error) {
    await Promise.all([...acceptors, server].map(closeOnce));
    throw error;
  }
  const close = server.close.bind(server);
  server.close = (callback?: (error?: Error) => void) => {
    for (const acceptor of acceptors) if (acceptor.listening) acceptor.close();
    return close(callback);
  };
}
