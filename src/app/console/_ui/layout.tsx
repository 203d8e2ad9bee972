"use client";
import Link from "next/link";
import type { FormEvent, ReactNode } from "react";
import { Button } from "./button";
import styles from "./ui.module.css";

/** A page's title, an optional way back and actions on the right. */
export function PageHeader({
  title,
  back,
  actions,
  children,
}: {
  title: ReactNode;
  back?: { href: string; label: string };
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <header className={styles.pageHeader}>
      {back && (
        <p className={styles.back}>
          <Link href={back.href}>← {back.label}</Link>
        </p>
      )}
      <div className={styles.pageTitleRow}>
        <h1>{title}</h1>
        {actions && <div className={styles.actions}>{actions}</div>}
      </div>
      {children}
    </header>
  );
}

/**
 * A filter form in a `<search>` landmark. Give it `useUrlFilters().formKey` as `key` so its fields
 * clear on reset; `onApply` receives the form (see `fromForm`).
 */
export function FilterBar({
  label,
  onApply,
  onReset,
  children,
}: {
  label: string;
  onApply: (form: HTMLFormElement) => void;
  onReset?: () => void;
  children: ReactNode;
}) {
  return (
    <search aria-label={label}>
      <form
        className={styles.filterBar}
        onSubmit={(event: FormEvent<HTMLFormElement>) => {
          event.preventDefault();
          onApply(event.currentTarget);
        }}
      >
        {children}
        <div className={styles.filterActions}>
          <Button type="submit">Search</Button>
          {onReset && (
            <Button variant="secondary" onClick={onReset}>
              Clear
            </Button>
          )}
        </div>
      </form>
    </search>
  );
}

/** Label/value pairs of a record's detail. */
export function Facts({ items }: { items: [label: string, value: ReactNode][] }) {
  return (
    <dl className={styles.facts}>
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value ?? "—"}</dd>
        </div>
      ))}
    </dl>
  );
}

export const formatDateTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "medium" }) : "—";
