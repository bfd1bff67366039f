/**
 * The page's URL as the learner sees it. React Router 8 hands loaders the raw request: a client
 * navigation asks for `/learn/courses.data?_routes=…` (decision 013). Route modules read the `url`
 * argument; services that only have the request (sign-in return, re-login) use this.
 */
export function pageUrl(request: Request): URL {
  const url = new URL(request.url);
  if (url.pathname.endsWith("/_.data")) url.pathname = url.pathname.slice(0, -"/_.data".length) || "/";
  else if (url.pathname.endsWith(".data")) url.pathname = url.pathname.slice(0, -".data".length);
  url.searchParams.delete("_routes");
  return url;
}
