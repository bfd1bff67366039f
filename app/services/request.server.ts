import { createContext, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { readSession, type SessionData } from "./session.server";
import { enforceLearnerArea, lmsFor, loadShell, type ShellData } from "./user.server";
import { loginUrl } from "./auth.server";
import type { LmsClient } from "./lms.server";

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
const SHELL_CACHE_MAX = 2_000;
const shellCache = new Map<string, { expires: number; value: Promise<ShellData> }>();

function cachedShell(token: string, fresh: boolean, load: () => Promise<ShellData>): Promise<ShellData> {
  const now = Date.now();
  if (fresh) {
    // A write may change what the shell shows: forget it; the next read loads it anew.
    shellCache.delete(token);
    return load();
  }
  const hit = shellCache.get(token);
  if (hit && hit.expires > now) return hit.value;
  const value = load();
  shellCache.set(token, { expires: now + SHELL_TTL_MS, value });
  value.catch(() => shellCache.delete(token));
  if (shellCache.size > SHELL_CACHE_MAX) shellCache.delete(shellCache.keys().next().value!);
  return value;
}

export class RequestState {
  private sessionPromise: Promise<SessionData | null> | null = null;
  private shellPromise: Promise<ShellData | null> | null = null;

  constructor(
    readonly request: Request,
    private readonly context: Readonly<RouterContextProvider>,
  ) {}

  session() {
    return (this.sessionPromise ??= readSession(this.request));
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
      return cachedShell(session.accessToken, fresh, () => loadShell(lmsFor(this.request, this.context, session), session));
    })());
  }

  /** Signed in and allowed in the learner area (spec 6), else a redirect. */
  async requireLearner(): Promise<ShellData> {
    const shell = await this.shell();
    if (!shell) throw redirect(loginUrl(this.request));
    enforceLearnerArea(shell);
    return shell;
  }
}

export const requestContext = createContext<RequestState>();

export const requestStateMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  context.set(requestContext, new RequestState(request, context));
  return next();
};

export function state(context: Readonly<RouterContextProvider>): RequestState {
  return context.get(requestContext);
}
