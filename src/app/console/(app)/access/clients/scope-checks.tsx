"use client";
import { useId } from "react";
import css from "../access.module.css";

/**
 * The scopes of one gateway as checkboxes (decisions §5), bound to a console form's `scopes` field
 * (a `Controller`): the value is the checked scopes in the gateway's order.
 */
export function ScopeChecks<S extends string>({
  scopes,
  value,
  onChange,
  error,
  legend = "Scopes",
}: {
  scopes: readonly S[];
  value: readonly S[];
  onChange: (scopes: S[]) => void;
  error?: string;
  legend?: string;
}) {
  const errorId = `${useId()}-error`;
  const toggle = (scope: S, on: boolean) => onChange(scopes.filter((known) => (known === scope ? on : value.includes(known))));
  return (
    <fieldset className={css.checks} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      <div className={css.checkList}>
        {scopes.map((scope) => (
          <label key={scope} className={css.check}>
            <input type="checkbox" name="scopes" value={scope} checked={value.includes(scope)} onChange={(event) => toggle(scope, event.target.checked)} />
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
