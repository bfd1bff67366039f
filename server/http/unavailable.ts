/**
 * The answer while the database or the storage cannot be used (decision 053, issue 53 items 2 and
 * 3): 503 with `Retry-After`, "temporarily unavailable, try again in a moment" in the learner's
 * language (the `lng` cookie, then Accept-Language, as every refusal), a plain page that needs no
 * script, no style and no database — or the API's JSON error shape for a JSON client. It carries
 * `X-Unavailable: database|storage`, which the metrics count apart from overload refusals.
 */
import { localeDirection } from "#domain/locales";
import { escapeHtml, refusalLocale, textsFor, type RefusalAudience } from "./front";

export type Dependency = "database" | "storage";

/** The header that names what is down (read by the metrics; harmless to a client). */
export const UNAVAILABLE_HEADER = "X-Unavailable";

export function unavailableResponse(
  dependency: Dependency,
  audience: RefusalAudience,
  retryAfterSeconds: number,
): Response {
  const locale = refusalLocale(audience);
  const t = textsFor(locale).unavailable;
  const headers = {
    "Retry-After": String(retryAfterSeconds),
    "Cache-Control": "no-store",
    "Content-Language": locale,
    [UNAVAILABLE_HEADER]: dependency,
  };
  const accept = audience.accept ?? "";
  if (accept.includes("json") && !accept.includes("text/html"))
    return Response.json(
      {
        status: 503,
        title: t.title,
        errors: { "": [{ code: `${dependency}Unavailable`, message: t.text, params: { seconds: retryAfterSeconds } }] },
      },
      { status: 503, headers },
    );
  const html =
    `<!DOCTYPE html><html lang="${locale}" dir="${localeDirection(locale)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>503 ${escapeHtml(t.title)}</title></head>` +
    `<body><main><h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(t.text)}</p>` +
    `<p><a href="">${escapeHtml(t.retry)}</a></p></main></body></html>`;
  return new Response(html, { status: 503, headers: { ...headers, "Content-Type": "text/html; charset=utf-8" } });
}

/** What the pages need of a dependency's probe (server/operations/dependencies.ts). */
interface Probe {
  readonly name: Dependency;
  knownDown(): boolean;
  downNow(): Promise<boolean>;
  status(): Promise<string | null>;
}

/** Seconds a client is told to wait (`Retry-After`) while the database or the storage is down. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * The pages, answered "temporarily unavailable" while what they need is down: at once while the
 * database is known to be down (its probe checks again each second), and in place of a page's error
 * (5xx) or "not found" when a check made then finds the database or the storage down — a storage
 * outage must not read as missing content (issue 53 item 3).
 */
export function whileAvailable<A extends unknown[]>(
  database: Probe,
  storage: Probe,
  pages: (request: Request, ...rest: A) => Promise<Response>,
): (request: Request, ...rest: A) => Promise<Response> {
  const answer = (probe: Probe, request: Request, response?: Response) => {
    void response?.body?.cancel().catch(() => {});
    return unavailableResponse(
      probe.name,
      {
        accept: request.headers.get("accept"),
        acceptLanguage: request.headers.get("accept-language"),
        cookie: request.headers.get("cookie"),
      },
      UNAVAILABLE_RETRY_AFTER_SECONDS,
    );
  };
  return async (request, ...rest) => {
    if (database.knownDown()) {
      void database.status();
      return answer(database, request);
    }
    const response = await pages(request, ...rest);
    if (response.status < 500 && response.status !== 404) return response;
    if (await database.downNow()) return answer(database, request, response);
    if (await storage.downNow()) return answer(storage, request, response);
    return response;
  };
}
