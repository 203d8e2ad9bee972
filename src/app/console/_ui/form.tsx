import type { ReactNode } from "react";
import { Button, type ButtonProps } from "./button";
import styles from "./ui.module.css";

/**
 * A mutation form's submit button: disabled and busy while the mutation runs, saying what it does
 * meanwhile ("Saving…"), so a second click sends nothing.
 */
export function SubmitButton({
  pending,
  pendingLabel = "Saving…",
  disabled,
  children,
  ...props
}: Omit<ButtonProps, "type" | "children"> & { pending: boolean; pendingLabel?: string; children: ReactNode }) {
  return (
    <Button {...props} type="submit" disabled={pending || disabled} aria-busy={pending || undefined}>
      {pending ? pendingLabel : children}
    </Button>
  );
}

/** A form's error that belongs to no one field (a conflict, a refusal), read out when it appears. */
export function FormError({ message, className }: { message: string | null | undefined; className?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className={className ?? styles.error}>
      {message}
    </p>
  );
}
