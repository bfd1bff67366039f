import { lazy, memo, Suspense, type ComponentType, type JSX } from "react";
import { useTranslation } from "~/common/i18n";

/** Spec 8 'Module not found': what a widget whose code could not be loaded shows in its place. */
function ModuleNotFound() {
  const { t } = useTranslation();
  return (
    <p className="notice" role="alert">
      {t("messages.moduleNotFound")}
    </p>
  );
}

/**
 * `React.lazy` for a widget (docs/style.md: widgets load lazily): when its code cannot be loaded (a
 * deployment replaced the chunk, the network dropped), the page keeps working and the widget's place
 * says 'Module not found' (spec 8) instead of the whole page becoming the 500 page.
 */
export function lazyWidget<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(() =>
    load().catch((err: unknown) => {
      console.warn("[widget] its code could not be loaded:", err);
      return { default: ModuleNotFound as ComponentType<P> };
    }),
  );
}

function LoadingNotice() {
  const { t } = useTranslation();
  return <p className="notice">{t("app.loading")}</p>;
}

/**
 * A lazy widget the server renders whole (the page works without JavaScript), in its own Suspense
 * boundary, memoized. While the page hydrates React keeps the server's HTML until the widget's code
 * arrives — unless the boundary receives new props meanwhile: then it throws that HTML away for the
 * fallback, and the page jumps (measured on a PDF activity on a phone: a layout shift of 0.29–0.58,
 * where 0.1 is "poor"). `memo` stops the re-renders around it (useHydrated, live progress) at the
 * boundary while its props stay the same, which they do: they come from the loader's data.
 * `loading`: what shows when the code is still missing after hydration ("Loading…"), else nothing.
 */
export function serverRenderedWidget<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  options: { loading?: boolean } = {},
) {
  const Widget = lazyWidget(load);
  const fallback = options.loading ? <LoadingNotice /> : null;
  return memo(function ServerRenderedWidget(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Widget {...(props as P & JSX.IntrinsicAttributes)} />
      </Suspense>
    );
  });
}
