"use client";

import { useEffect, useState } from "react";

/**
 * A demo panel's list, read from `url` now and again every `everyMs` after each answer (never two
 * reads at once), until the panel unmounts. `problem` says, in the panel's words, why the last read
 * failed; the list keeps its last good value meanwhile and the reads go on.
 */
export function usePolled<T>(url: string, pick: (body: unknown) => T, everyMs: number, what: string): { value: T | null; problem: string | null } {
  const [value, setValue] = useState<T | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `pick` is a fresh function each render; the read depends on the URL alone.
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const answer = await fetch(url, { cache: "no-store" });
        if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
        const body = pick(await answer.json());
        if (!stopped) {
          setValue(body);
          setProblem(null);
        }
      } catch (error) {
        if (!stopped) setProblem(`Could not read the ${what} (${(error as Error).message}); trying again.`);
      }
      if (!stopped) timer = setTimeout(load, everyMs);
    };
    load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [url, everyMs, what]);

  return { value, problem };
}
