import { useTranslation } from "~/common/i18n";

/** Issue 14 item 8: the table of contents marks a proctored activity (an eye), with its meaning as tooltip and text. */
export function ProctoredMark() {
  const { t } = useTranslation();
  const label = t("proctor.mark");
  return (
    <span className="toc__proctored" title={label}>
      <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
        <path d="M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z" fill="none" stroke="currentColor" strokeWidth="2" />
        <circle cx="12" cy="12" r="3" fill="currentColor" />
      </svg>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
