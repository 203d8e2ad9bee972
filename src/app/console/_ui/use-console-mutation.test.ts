import { QueryClient } from "@tanstack/react-query";
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
});
