import { useTranslation } from "~/common/i18n";
import { parseFormError } from "~/common/forms/errors";

/**
 * A field's (or a form's) error messages, from Conform: checked in the browser, re-rendered by the
 * action without JavaScript, or returned by the API — the same codes either way (`~/common/forms/errors`).
 */
export function FieldErrors({ id, errors, className }: { id?: string; errors?: string[]; className?: string }) {
  const { t } = useTranslation();
  if (!errors || errors.length === 0) return null;
  return (
    <ul id={id} className={className ?? "field-errors"}>
      {errors.map((text) => {
        const { code, params } = parseFormError(text);
        return <li key={text}>{t(`apiErrors.${code}`, { ...params, defaultValue: t("apiErrors.unknown") })}</li>;
      })}
    </ul>
  );
}
