import { lazy, type ComponentType } from "react";
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
 * `React.lazy` for a widget (STYLE.md: widgets load lazily): when its code cannot be loaded (a
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
