import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { refreshAfterMutation } from "./use-console-mutation";

describe("refreshAfterMutation: what every console mutation refreshes", () => {
  it("invalidates the queries under each key and the audit log, and nothing else", async () => {
    const queryClient = new QueryClient();
    const keys = { users: [["users", "list"]], audit: [["audit", "search"], { input: {} }], other: [["sources", "list"]] };
    for (const key of Object.values(keys)) queryClient.setQueryData(key, "cached");
    await refreshAfterMutation(queryClient, [[["users"]]], [["audit"]]);
    const invalidated = (key: unknown[]) => queryClient.getQueryState(key)?.isInvalidated;
    expect(invalidated(keys.users)).toBe(true);
    expect(invalidated(keys.audit)).toBe(true);
    expect(invalidated(keys.other)).toBe(false);
  });

  it("refreshes the audit log even when the mutation names nothing else (a reveal, which is audited)", async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData([["audit", "search"]], "cached");
    await refreshAfterMutation(queryClient, [], [["audit"]]);
    expect(queryClient.getQueryState([["audit", "search"]])?.isInvalidated).toBe(true);
  });

  it("refetches a list whose first fetch, begun before the write, is still in flight: the rows after the write, not before", async () => {
    const queryClient = new QueryClient();
    let table = ["a"];
    let release: () => void = () => {};
    let calls = 0;
    // The list's first fetch reads the table, then its answer is held (a slow server under load).
    const queryFn = async () => {
      calls++;
      const rows = [...table];
      if (calls === 1) await new Promise<void>((resolve) => (release = resolve));
      return rows;
    };
    const observer = new QueryObserver(queryClient, { queryKey: [["providers", "search"]], queryFn });
    const unsubscribe = observer.subscribe(() => {});
    await Promise.resolve();
    expect(calls).toBe(1);
    // The mutation commits while that fetch is in flight, then refreshes.
    table = ["a", "b"];
    const refreshed = refreshAfterMutation(queryClient, [[["providers"]]], [["audit"]]);
    release();
    await refreshed;
    expect(queryClient.getQueryData([["providers", "search"]])).toEqual(["a", "b"]);
    unsubscribe();
  });
});
