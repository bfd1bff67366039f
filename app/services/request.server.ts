import { createContext, data, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { readSession, type SessionData } from "./session.server";
import { enforceLearnerArea, lmsFor, loadShell, type ShellData } from "./user.server";
import { loginUrl } from "./auth.server";
import { LmsError, type LmsClient } from "./lms.server";
import { NO_ACCOUNT } from "~/common/errors";
import type { Endpoint } from "#domain/contract/endpoints";
import { appConfig, appLoadContext, sessionStore, type AppConfig } from "./config.server";
import { readCacheFor, type ReadCache } from "./read-cache.server";

/**
 * Per-request state shared by every loader of one request: the session is read once and the shell
 * (user, permissions, licences, settings) is fetched at most once, however many loaders ask. Both
 * the shell and the learner's filter lists are remembered between requests by the node's
 * `ReadCache`, which every node's writes keep current (decision 019).
 */
export class RequestState {
  private sessionPromise: Promise<SessionData | null> | null = null;
  private shellPromise: Promise<ShellData | null> | null = null;

  readonly config: AppConfig;
  private readonly reads: ReadCache;

  constructor(
    readonly request: Request,
    private readonly context: Readonly<RouterContextProvider>,
  ) {
    this.config = appConfig(context);
    // The load context's change feed (decision 015): the server's database, which hears every node's writes.
    this.reads = readCacheFor(context.get(appLoadContext).changes, this.config);
  }

  private get writing(): boolean {
    return this.request.method !== "GET" && this.request.method !== "HEAD";
  }

  session() {
    return (this.sessionPromise ??= readSession(this.request, this.config, sessionStore(this.context)));
  }

  async lms(): Promise<LmsClient> {
    return lmsFor(this.request, this.context, await this.session());
  }

  /** The shell of the signed-in user, or null for visitors (and for a session the API no longer accepts). */
  shell(): Promise<ShellData | null> {
    return (this.shellPromise ??= (async () => {
      const session = await this.session();
      if (!session) return null;
      // A write may change what the shell shows: it is loaded anew.
      return this.reads
        .shell(session.accessToken, this.writing, () =>
          loadShell(lmsFor(this.request, this.context, session), session, this.config),
        )
        .catch((err: unknown) => {
          // Decision 049: signed in at the provider, but no account here — the "no account" page.
          if (err instanceof LmsError && err.status === 403 && err.firstMessage()?.code === "accountNotProvisioned")
            throw data(NO_ACCOUNT, { status: 403 });
          throw err;
        });
    })());
  }

  /**
   * A read that depends only on the learner's own data (and the tenant's), remembered per session
   * until the learner, or anything it shows, changes on any node (decision 019), at most 30 s.
   */
  async cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const session = await this.session();
    if (!session || this.writing) return load();
    const shell = await this.shell();
    if (!shell) return load();
    return this.reads.list(session.accessToken, shell.user.id, key, load);
  }

  /** `cached` for an endpoint of the LMS API (keyed by its path). */
  cachedGet<T>(lms: LmsClient, endpoint: Endpoint<T>): Promise<T> {
    return this.cached(endpoint.path, () => lms.get(endpoint));
  }

  /**
   * Called for every write: what this node remembered for the learner may be out of date now (the
   * other nodes hear of it from the database once the write has committed).
   */
  async forgetLearnerReads(): Promise<void> {
    const session = await this.session();
    if (session) this.reads.forgetSession(session.accessToken);
  }

  /** Signed in and allowed in the learner area (spec 6), else a redirect. */
  async requireLearner(): Promise<ShellData> {
    const shell = await this.shell();
    if (!shell) throw redirect(loginUrl(this.request));
    enforceLearnerArea(shell, this.config);
    return shell;
  }
}

export const requestContext = createContext<RequestState>();

export const requestStateMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const s = new RequestState(request, context);
  context.set(requestContext, s);
  if (request.method !== "GET" && request.method !== "HEAD") await s.forgetLearnerReads();
  return next();
};

export function state(context: Readonly<RouterContextProvider>): RequestState {
  return context.get(requestContext);
}
