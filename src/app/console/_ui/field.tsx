"use client";
import { type ComponentProps, type InputHTMLAttributes, type ReactNode, useId } from "react";
import styles from "./ui.module.css";

type Control = { id: string; "aria-invalid"?: true; "aria-describedby"?: string };

/** A label, its control, an optional hint and an error read out with the control. */
export function Field({ label, hint, error, children }: { label: ReactNode; hint?: ReactNode; error?: ReactNode; children: (control: Control) => ReactNode }) {
  const id = useId();
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(error ? { "aria-invalid": true } : {}), ...(described ? { "aria-describedby": described } : {}) })}
      {hint && (
        <small id={`${id}-hint`} className={styles.hint}>
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className={styles.error}>
          {error}
        </small>
      )}
    </div>
  );
}

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={`${styles.input} ${className ?? ""}`} {...props} />;
}

/** A labelled text input in one line, for filter bars. */
export function TextField({ label, hint, error, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; hint?: ReactNode; error?: ReactNode }) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => <Input {...control} {...props} />}
    </Field>
  );
}
