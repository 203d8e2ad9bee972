"use client";
import { Tabs as RadixTabs } from "radix-ui";
import type { ReactNode } from "react";
import styles from "./ui.module.css";

export type Tab = { value: string; label: ReactNode; content: ReactNode };

/** Tabs with arrow-key navigation (Radix); `value`/`onValueChange` let a screen keep the tab in the URL. */
export function Tabs({
  tabs,
  label,
  value,
  defaultValue,
  onValueChange,
}: {
  tabs: Tab[];
  label: string;
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
}) {
  return (
    <RadixTabs.Root className={styles.tabs} value={value} defaultValue={defaultValue ?? tabs[0]?.value} onValueChange={onValueChange}>
      <RadixTabs.List className={styles.tabList} aria-label={label}>
        {tabs.map((tab) => (
          <RadixTabs.Trigger key={tab.value} value={tab.value} className={styles.tabTrigger}>
            {tab.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {tabs.map((tab) => (
        <RadixTabs.Content key={tab.value} value={tab.value} className={styles.tabContent}>
          {tab.content}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
