import type { InputHTMLAttributes, ReactNode, Ref } from "react";
import type { FieldErrors } from "@/server/errors";
import styles from "./enroll.module.css";
import { type FormState, fieldError, keptValue } from "./form-state";

type FieldProps = {
  /** The input's id and form name. */
  name: string;
  label: string;
  error?: string;
  hint?: string;
  /** The input itself; it must carry `id={name}` and `aria-describedby={describedBy(...)}`. */
  children: ReactNode;
};

/**
 * A labelled field, its hint and its error right below it (decisions §10: errors beside fields). The
 * hint follows the input so that inputs side by side line up whether or not they have a hint.
 */
export function Field({ name, label, error, hint, children }: FieldProps) {
  return (
    <div className={styles.field} data-invalid={error ? "true" : undefined}>
      <label htmlFor={name} className={styles.label}>
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${name}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${name}-error`} className={styles.fieldError}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

type TextFieldProps = Omit<FieldProps, "children" | "error"> & {
  state: FormState;
  /** What the server pre-filled; `false` for a value never sent back after an error (card number, code). */
  initial: string | false;
  input?: Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "defaultValue" | "value">;
};

/**
 * A required text input in its `Field`: id and name, the value kept after an error (or the
 * pre-filled one), `aria-invalid` and `aria-describedby` wired to its hint and error.
 */
export function TextField({ name, label, hint, state, initial, input }: TextFieldProps) {
  const error = fieldError(state, name);
  return (
    <Field name={name} label={label} hint={hint} error={error}>
      <input
        id={name}
        name={name}
        required
        {...input}
        {...(initial === false ? {} : { defaultValue: keptValue(state, name, initial) })}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(name, hint !== undefined, error)}
      />
    </Field>
  );
}

/** The `aria-describedby` of a field: its hint and its error, when present. */
export function describedBy(name: string, hint: boolean, error: string | undefined): string | undefined {
  const ids = [hint ? `${name}-hint` : null, error ? `${name}-error` : null].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

type SummaryProps = {
  message: string;
  fields: FieldErrors;
  /** Field names in form order, with the id each error links to. */
  order: { name: string; target: string }[];
  ref?: Ref<HTMLDivElement>;
};

/** The errors of a submission, announced (`role="alert"`) and linking to each field; receives focus. */
export function ErrorSummary({ message, fields, order, ref }: SummaryProps) {
  const linked = order.flatMap(({ name, target }) => (fields[name] ?? []).slice(0, 1).map((text) => ({ name, target, text })));
  const known = new Set(order.map((o) => o.name));
  const other = Object.entries(fields).flatMap(([name, texts]) => (known.has(name) ? [] : texts));
  return (
    <div role="alert" tabIndex={-1} ref={ref} className={styles.errorSummary}>
      <p className={styles.errorTitle}>{message}</p>
      {linked.length || other.length ? (
        <ul>
          {linked.map((e) => (
            <li key={e.name}>
              <a href={`#${e.target}`}>{e.text}</a>
            </li>
          ))}
          {other.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
