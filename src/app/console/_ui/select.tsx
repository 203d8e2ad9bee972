"use client";
import { Select as RadixSelect } from "radix-ui";
import { type ReactNode, useId } from "react";
import styles from "./ui.module.css";

export type SelectOption = { value: string; label: string };

/** Radix Select refuses "" as an item value; "" (meaning "any") travels as this sentinel. */
export const ANY = "__any__";

/**
 * A labelled select. `value` "" stands for "any" when an option with value "" is given. `name`
 * puts the value in a surrounding form's data (Radix renders a hidden native select). `error` is
 * shown under it and read out with it, as `Field` does for inputs.
 */
export function Select({
  label,
  value,
  onValueChange,
  options,
  name,
  defaultValue,
  error,
}: {
  label: string;
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  options: SelectOption[];
  name?: string;
  error?: ReactNode;
}) {
  const id = useId();
  const wrap = (v: string | undefined) => (v === undefined ? undefined : v === "" ? ANY : v);
  return (
    <div className={styles.field}>
      <label id={`${id}-label`} htmlFor={id}>
        {label}
      </label>
      <RadixSelect.Root value={wrap(value)} defaultValue={wrap(defaultValue)} onValueChange={(v) => onValueChange?.(v === ANY ? "" : v)} name={name}>
        <RadixSelect.Trigger
          id={id}
          className={styles.selectTrigger}
          aria-labelledby={`${id}-label`}
          {...(error ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {})}
        >
          <RadixSelect.Value />
          <RadixSelect.Icon className={styles.selectIcon}>▾</RadixSelect.Icon>
        </RadixSelect.Trigger>
        <RadixSelect.Portal>
          <RadixSelect.Content className={styles.selectContent} position="popper" sideOffset={4}>
            <RadixSelect.Viewport>
              {options.map((option) => (
                <RadixSelect.Item key={option.value} value={wrap(option.value) as string} className={styles.selectItem}>
                  <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
                </RadixSelect.Item>
              ))}
            </RadixSelect.Viewport>
          </RadixSelect.Content>
        </RadixSelect.Portal>
      </RadixSelect.Root>
      {error && (
        <small id={`${id}-error`} className={styles.error}>
          {error}
        </small>
      )}
    </div>
  );
}
