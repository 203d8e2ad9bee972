"use client";
import { useId } from "react";
import css from "../access.module.css";

/** The scopes of one gateway as checkboxes named `scopes` (decisions §5); a form reads them with FormData.getAll. */
export function ScopeChecks({
  scopes,
  checked,
  error,
  legend = "Scopes",
}: {
  scopes: readonly string[];
  checked: readonly string[];
  error?: string;
  legend?: string;
}) {
  const errorId = `${useId()}-error`;
  return (
    <fieldset className={css.checks} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      <div className={css.checkList}>
        {scopes.map((scope) => (
          <label key={scope} className={css.check}>
            <input type="checkbox" name="scopes" value={scope} defaultChecked={checked.includes(scope)} />
            <code>{scope}</code>
          </label>
        ))}
      </div>
      {error && (
        <small id={errorId} className="error">
          {error}
        </small>
      )}
    </fieldset>
  );
}
