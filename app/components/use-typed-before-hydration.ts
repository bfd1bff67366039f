import { useEffect, useState } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * React 19 sets a server-rendered `<textarea>`'s value back to its default when it hydrates it
 * (`initTextarea`), so what a learner typed before the page's script ran — on a slow phone, seconds of
 * typing — was lost. The hydrating render reads the box before React touches it (the element is still
 * the server's then), and the text is put back once the page is React's. Only while hydrating: a box
 * mounted later is new, whatever an old element with the same id held.
 */
export function useTypedBeforeHydration(id: string | undefined) {
  const hydrated = useHydrated();
  const [typed] = useState(() =>
    hydrated || !id || typeof document === "undefined"
      ? null
      : ((document.getElementById(id) as HTMLTextAreaElement | null)?.value ?? null),
  );
  useEffect(() => {
    if (typed === null || !id) return;
    const box = document.getElementById(id) as HTMLTextAreaElement | null;
    if (box && box.value !== typed) box.value = typed;
    // Once, after the hydrating render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
