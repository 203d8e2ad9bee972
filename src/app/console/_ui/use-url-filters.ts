"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { ANY } from "./select";

/**
 * Filters kept in the URL's query string, so a filtered view can be shared by its address
 * (decisions §12). `defaults` names the filters and their values when absent; a filter set back to
 * its default leaves the URL. Changing filters replaces the history entry rather than piling up.
 */
export function useUrlFilters<K extends string>(defaults: Record<K, string>) {
  const params = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const keys = Object.keys(defaults) as K[];
  const search = params.toString();

  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed when the query string changes
  const values = useMemo(() => {
    const out = {} as Record<K, string>;
    for (const key of keys) out[key] = params.get(key) ?? defaults[key];
    return out;
  }, [search]);

  const set = useCallback(
    (patch: Partial<Record<K, string>>) => {
      const next = new URLSearchParams(search);
      for (const [key, value] of Object.entries(patch) as [K, string | undefined][]) {
        const trimmed = value?.trim() ?? "";
        if (trimmed === "" || trimmed === defaults[key]) next.delete(key);
        else next.set(key, trimmed);
      }
      const query = next.toString();
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [search, pathname, router, defaults],
  );

  const reset = useCallback(() => router.replace(pathname, { scroll: false }), [pathname, router]);

  /** Reads a submitted filter form: every named field that is one of the filters. */
  const fromForm = useCallback(
    (form: HTMLFormElement) => {
      const data = new FormData(form);
      const patch: Partial<Record<K, string>> = {};
      for (const key of keys) {
        const value = data.get(key);
        if (typeof value === "string") patch[key] = value === ANY ? "" : value;
      }
      set(patch);
    },
    [set, keys],
  );

  /** Use as the filter form's `key` so its fields show the URL's values after back/forward. */
  return { values, set, reset, fromForm, formKey: search };
}
