import { createContext, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { readSession, type SessionData } from "./session.server";
import { enforceLearnerArea, lmsFor, loadShell, type ShellData } from "./user.server";
import { loginUrl } from "./auth.server";
import type { LmsClient } from "./lms.server";
import type { Endpoint } from "#domain/contract/endpoints";
import { appConfig, sessionStore, type AppConfig } from "./config.server";

/**
 * Per-request state shared by every loader of one request: the session is read once and the shell
 * (user, permissions, licences, settings) is fetched at most once, however many loaders ask.
 */
/**
 * The shell rarely changes, and every page needs it: a short per-process cache keyed by the access
 * token saves the four API calls on most navigations. Any write (non-GET) refreshes it, so a
 * learner's own change (time zone, enrolment) shows at once; other changes show within the TTL.
 */
const SHELL_TTL_MS = 30_000;
/**
 * After the TTL an entry is still answered while its replacement loads (once), for at most this
 * long: requests never queue behind a refresh — under load, 50 requests waiting for one refresh
 * behind the database's queue made the slowest 1 % of My courses take seconds.
 */
const STALE_MS = 30_000;
const SHELL_CACHE_MAX = 2_000;

export interface Entry<T> {
  expires: number;
  value: Promise<T>;
  refreshing: boolean;
}

/** Fresh → the value; stale → the value, and one background refresh; missing or too old → load. */
export function remember<T>(
  cache: Map<string, Entry<T>>,
  key: string,
  load: () => Promise<T>,
  max: number,
): Promise<T> {
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.expires > now) return hit.value;
  if (hit && hit.expires + STALE_MS > now) {
    if (!hit.refreshing) {
      hit.refreshing = true;
      const next = load();
      next.then(
        () =>
          cache.get(key) === hit &&
          cache.set(key, { expires: Date.now() + SHELL_TTL_MS, value: next, refreshing: false }),
        () => cache.get(key) === hit && cache.delete(key),
      );
    }
    return hit.value;
  }
  const value = load();
  cache.set(key, { expires: now + SHELL_TTL_MS, value, refreshing: false });
  value.catch(() => cache.get(key)?.value === value && cache.delete(key));
  if (cache.size > max) cache.delete(cache.keys().next().value!);
  return value;
}

const shellCache = new Map<string, Entry<ShellData>>();

function cachedShell(token: string, fresh: boolean, load: () => Promise<ShellData>): Promise<ShellData> {
  if (fresh) {
    // A write may change what the shell shows: forget it; the next read loads it anew.
    shellCache.delete(token);
    return load();
  }
  return remember(shellCache, token, load, SHELL_CACHE_MAX);
}

/** Per-learner lists that change only when the learner does something (filter values of My courses). */
const listCache = new Map<string, Entry<unknown>>();

export class RequestState {
  private sessionPromise: Promise<SessionData | null> | null = null;
  private shellPromise: Promise<ShellData | null> | null = null;

  readonly config: AppConfig;

  constructor(
    readonly request: Request,
    private readonly context: Readonly<RouterContextProvider>,
  ) {
    this.config = appConfig(context);
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
      const fresh = this.request.method !== "GET" && this.request.method !== "HEAD";
      return cachedShell(session.accessToken, fresh, () =>
        loadShell(lmsFor(this.request, this.context, session), session, this.config),
      );
    })());
  }

  /**
   * A read that depends only on the learner's own data, remembered for 30 s per access token; any
   * write by the learner (a non-GET request) forgets everything remembered for them.
   */
  async cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const session = await this.session();
    if (!session) return load();
    const prefix = `${session.accessToken.slice(-32)}:`;
    if (this.request.method !== "GET" && this.request.method !== "HEAD") return load();
    return remember(listCache as Map<string, Entry<T>>, prefix + key, load, SHELL_CACHE_MAX * 4);
  }

  /** `cached` for an endpoint of the LMS API (keyed by its path). */
  cachedGet<T>(lms: LmsClient, endpoint: Endpoint<T>): Promise<T> {
    return this.cached(endpoint.path, () => lms.get(endpoint));
  }

  /** Called for every write: what was remembered for this learner may be out of date now. */
  async forgetLearnerReads(): Promise<void> {
    const session = await this.session();
    if (!session) return;
    const prefix = `${session.accessToken.slice(-32)}:`;
    for (const k of listCache.keys()) if (k.startsWith(prefix)) listCache.delete(k);
    shellCache.delete(session.accessToken);
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
