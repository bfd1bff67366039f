import { useTranslation } from "~/common/i18n";
import type { TocIconName } from "#domain/activity-access";

const PATHS: Record<TocIconName, React.ReactNode> = {
  clock: (
    <>
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M12 7v5l3 3" fill="none" stroke="currentColor" strokeWidth="2" />
    </>
  ),
  check: (
    <>
      <circle cx="12" cy="12" r="10" fill="currentColor" />
      <path d="M7 12.5l3.2 3.2L17 9" fill="none" stroke="#fff" strokeWidth="2.2" />
    </>
  ),
  warning: (
    <>
      <path d="M12 3l10 18H2z" fill="currentColor" />
      <path d="M12 10v5M12 17.5v.5" stroke="#fff" strokeWidth="2" />
    </>
  ),
  dashed: <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" strokeDasharray="3 3" />,
  empty: <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />,
};

/** Spec 4.13 icons with their tooltips; the meaning is also given as text for screen readers. */
export function TocIcon({
  icon,
  tooltipKeys,
  statusKey,
}: {
  icon: TocIconName | null;
  tooltipKeys: string[];
  statusKey: string;
}) {
  const { t } = useTranslation();
  const label = [t(statusKey), ...tooltipKeys.map((k) => t(k))].filter((v, i, a) => a.indexOf(v) === i).join(", ");
  return (
    <span className={`toc-icon toc-icon--${icon ?? "none"}`} title={label}>
      {icon ? (
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
          {PATHS[icon]}
        </svg>
      ) : null}
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
