import { useEffect, useRef, useState } from "react";
import { PrefetchPageLinks, useNavigate } from "react-router";

/** How long a pointer or focus rests on a link before its page is prefetched (as `<Link prefetch="intent">`). */
const INTENT_MS = 100;

/** The same-origin link an event came from inside `container`, or null (another site, a new tab, a download, this page…). */
function ownLink(event: React.SyntheticEvent<HTMLElement>): { url: URL; anchor: HTMLAnchorElement } | null {
  const target = event.target;
  if (!(target instanceof Element)) return null;
  const a = target.closest("a[href]");
  if (!(a instanceof HTMLAnchorElement) || !event.currentTarget.contains(a)) return null;
  if ((a.target && a.target !== "_self") || a.hasAttribute("download") || a.hasAttribute("data-reload-document"))
    return null;
  const url = new URL(a.href);
  if (url.origin !== window.location.origin) return null;
  // A link within the page (`#…` on this URL) is the browser's: it scrolls and moves the focus there.
  if (url.hash && url.pathname === window.location.pathname && url.search === window.location.search) return null;
  return { url, anchor: a };
}

const pathOf = (url: URL) => `${url.pathname}${url.search}${url.hash}`;

/**
 * Client navigation and intent prefetch for the plain `<a href>`s inside one element: a list of many
 * links (the course cards) gets one set of handlers instead of a `<Link>` each. A `<Link>` costs the
 * server about as much to render as the rest of a card (its hooks resolve its path on every render);
 * the links are the same `<a href>` either way, so without JavaScript nothing changes (decision 045).
 *
 * A click with no modifier key on a same-origin link navigates in the app, as a `<Link>` does (a link
 * with `data-prevent-scroll-reset` keeps the scroll position, as `preventScrollReset`); a pointer or
 * focus resting on one for 100 ms prefetches its page's modules and data, as `prefetch="intent"` does
 * (unless `prefetch: false`). Spread `handlers` on the container and render `prefetch` beside it.
 */
export function useDelegatedLinks({ prefetch: prefetchOnIntent = true }: { prefetch?: boolean } = {}): {
  handlers: Pick<
    React.HTMLAttributes<HTMLElement>,
    "onClick" | "onMouseOver" | "onMouseOut" | "onFocus" | "onBlur" | "onTouchStart"
  >;
  prefetch: React.ReactNode;
} {
  const navigate = useNavigate();
  const [page, setPage] = useState<string | null>(null);
  const timer = useRef<{ id: ReturnType<typeof setTimeout>; path: string } | null>(null);
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current.id);
    timer.current = null;
  };
  useEffect(() => cancel, []);
  const intent = (event: React.SyntheticEvent<HTMLElement>, wait: number) => {
    if (!prefetchOnIntent) return;
    const url = ownLink(event)?.url;
    if (!url) return;
    const path = `${url.pathname}${url.search}`;
    // Over the link's own text, or already prefetched: nothing to start again.
    if (path === page || timer.current?.path === path) return;
    cancel();
    timer.current = { id: setTimeout(() => setPage(path), wait), path };
  };
  const leave = (event: React.MouseEvent<HTMLElement> | React.FocusEvent<HTMLElement>) => {
    // Moving within the same link (onto its text) is not leaving it.
    const to = event.relatedTarget;
    const from = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (from && to instanceof Node && from.contains(to)) return;
    cancel();
  };
  return {
    handlers: {
      onClick(event) {
        if (event.defaultPrevented || event.button !== 0) return;
        if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
        const link = ownLink(event);
        if (!link) return;
        event.preventDefault();
        cancel();
        void navigate(pathOf(link.url), { preventScrollReset: link.anchor.hasAttribute("data-prevent-scroll-reset") });
      },
      onMouseOver: (event) => intent(event, INTENT_MS),
      onMouseOut: leave,
      onFocus: (event) => intent(event, INTENT_MS),
      onBlur: leave,
      onTouchStart: (event) => intent(event, 0),
    },
    prefetch: page ? <PrefetchPageLinks page={page} /> : null,
  };
}
