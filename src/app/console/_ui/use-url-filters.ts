"use client";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo, useState } from "react";
import { ANY } from "./select";

/**
 * Filters kept in the URL's query string, so a filtered view can be shared by its address
 * (decisions §12). `defaults` names the filters and their values when absent (define it once, at
 * module level); a filter set back to its default leaves the URL.
 *
 * The URL is written with `history.replaceState`, which Next.js folds into `useSearchParams`
 * without a navigation: a router navigation would fetch the page again and remount it (the page's
 * segment is keyed by its query string), losing focus and state on every filter change.
 */
export function useUrlFilters<K extends string>(defaults: Record<K, string>) {
  const params = useSearchParams();
  const pathname = usePathname();
  const [formKey, setFormKey] = useState(0);
  const search = params.toString();

  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed when the query string changes
  const values = useMemo(() => {
    const out = {} as Record<K, string>;
    for (const key of Object.keys(defaults) as K[]) out[key] = params.get(key) ?? defaults[key];
    return out;
  }, [search]);

  const set = useCallback(
    (patch: Partial<Record<K, string>>) => {
      const next = new URLSearchParams(window.location.search);
      for (const [key, value] of Object.entries(patch) as [K, string | undefined][]) {
        const trimmed = value?.trim() ?? "";
        if (trimmed === "" || trimmed === defaults[key]) next.delete(key);
        else next.set(key, trimmed);
      }
      const query = next.toString();
      window.history.replaceState(null, "", query ? `${pathname}?${query}` : pathname);
    },
    [pathname, defaults],
  );

  /** Clears every filter and the filter form's fields. */
  const reset = useCallback(() => {
    window.history.replaceState(null, "", pathname);
    setFormKey((key) => key + 1);
  }, [pathname]);

  /** Reads a submitted filter form: every named field that is one of the filters. */
  const fromForm = useCallback(
    (form: HTMLFormElement) => {
      const data = new FormData(form);
      const patch: Partial<Record<K, string>> = {};
      for (const key of Object.keys(defaults) as K[]) {
        const value = data.get(key);
        if (typeof value === "string") patch[key] = value === ANY ? "" : value;
      }
      set(patch);
    },
    [set, defaults],
  );

  /** The filter form's `key`: its uncontrolled fields start again from the URL after `reset`. */
  return { values, set, reset, fromForm, formKey };
}
