"use client";
import { type QueryClient, type QueryKey, type UseMutationOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "./trpc";

/** What a mutation changed: a tRPC router or procedure of the console (`trpc.users`, `trpc.webhooks.deliveries`). */
export type Invalidates = { pathKey(): QueryKey }[];

/**
 * Refreshes the queries under each key and the audit log: every console mutation records an audit
 * row in its transaction (docs/decisions.md, "Structure: console forms"), so the log is stale after
 * any of them. Resolves once every refetch is done. A fetch still in flight is cancelled first: it
 * may have read before the write, and TanStack Query's refetch of a query that has no data yet
 * joins the fetch in flight rather than starting another (a list still loading when its dialog's
 * create succeeded kept showing the rows from before it).
 */
export async function refreshAfterMutation(queryClient: QueryClient, keys: readonly QueryKey[], auditKey: QueryKey): Promise<void> {
  const all = [...keys, auditKey];
  await Promise.all(all.map((queryKey) => queryClient.cancelQueries({ queryKey })));
  await Promise.all(all.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/**
 * A console mutation: `useMutation` whose success first refreshes what it `invalidates` and the
 * audit log, then runs the caller's `onSuccess`; the mutation stays pending until both are done, so
 * the screen never shows the old rows after "Saved".
 *
 *   const create = useConsoleMutation(trpc.users.create.mutationOptions(), { invalidates: [trpc.users] });
 */
export function useConsoleMutation<TData, TError, TVariables, TContext>(
  options: UseMutationOptions<TData, TError, TVariables, TContext>,
  { invalidates, onSuccess }: { invalidates: Invalidates; onSuccess?: (data: TData, variables: TVariables) => unknown },
) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation<TData, TError, TVariables, TContext>({
    ...options,
    onSuccess: async (data, variables, ...rest) => {
      await refreshAfterMutation(
        queryClient,
        invalidates.map((router) => router.pathKey()),
        trpc.audit.pathKey(),
      );
      await options.onSuccess?.(data, variables, ...rest);
      await onSuccess?.(data, variables);
    },
  });
}
