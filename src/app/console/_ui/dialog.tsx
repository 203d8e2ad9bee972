"use client";
import { Dialog as RadixDialog } from "radix-ui";
import { type ReactNode, useState } from "react";
import { Button } from "./button";
import { Field, Input } from "./field";
import styles from "./ui.module.css";

/** A modal dialog (Radix: focus trapped, Escape closes, focus returns to the trigger). */
export function Dialog({
  trigger,
  title,
  description,
  children,
  open,
  onOpenChange,
}: {
  trigger?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger>}
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.overlay} />
        <RadixDialog.Content className={styles.dialog}>
          <RadixDialog.Title className={styles.dialogTitle}>{title}</RadixDialog.Title>
          {description ? (
            <RadixDialog.Description className={styles.dialogDescription}>{description}</RadixDialog.Description>
          ) : (
            <RadixDialog.Description className={styles.visuallyHidden}>{title}</RadixDialog.Description>
          )}
          {children}
          <RadixDialog.Close asChild>
            <button type="button" className={styles.dialogClose} aria-label="Close">
              ×
            </button>
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/**
 * Confirmation of an action. With `confirmText`, the action stays disabled until the user types it
 * exactly (dangerous actions: merges, bulk retries, address corrections). `onConfirm` may be async;
 * the dialog stays open, shows `error` if given, and closes when it resolves without throwing.
 */
export function ConfirmDialog({
  trigger,
  title,
  description,
  actionLabel,
  confirmText,
  danger,
  pending,
  error,
  onConfirm,
  children,
  dismissLabel = "Cancel",
}: {
  trigger: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  actionLabel: string;
  confirmText?: string;
  danger?: boolean;
  pending?: boolean;
  error?: ReactNode;
  onConfirm: () => unknown | Promise<unknown>;
  children?: ReactNode;
  /** The button that closes without acting ("Cancel" unless the action itself is a cancellation). */
  dismissLabel?: string;
}) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const ready = !confirmText || typed === confirmText;
  return (
    <Dialog
      trigger={trigger}
      title={title}
      description={description}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setTyped("");
      }}
    >
      <form
        className={styles.dialogForm}
        onSubmit={async (event) => {
          event.preventDefault();
          if (!ready || pending) return;
          try {
            await onConfirm();
            setOpen(false);
            setTyped("");
          } catch {
            // The caller shows the failure through `error`.
          }
        }}
      >
        {children}
        {confirmText && (
          <Field
            label={
              <>
                Type <code>{confirmText}</code> to confirm
              </>
            }
          >
            {(control) => <Input {...control} value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" spellCheck={false} />}
          </Field>
        )}
        {error && (
          <p role="alert" className={styles.error}>
            {error}
          </p>
        )}
        <div className={styles.dialogActions}>
          <RadixDialog.Close asChild>
            <Button variant="secondary">{dismissLabel}</Button>
          </RadixDialog.Close>
          <Button type="submit" variant={danger ? "danger" : "primary"} disabled={!ready || pending} aria-busy={pending || undefined}>
            {pending ? "Working…" : actionLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
