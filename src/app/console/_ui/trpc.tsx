"use client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { type ReactNode, useState } from "react";
import type { consoleRouter } from "@/composition/router";

/** The router the console's endpoint actually serves (src/composition/console-api.ts). */
export type ConsoleRouter = typeof consoleRouter;
export type ConsoleInputs = inferRouterInputs<ConsoleRouter>;
export type ConsoleOutputs = inferRouterOutputs<ConsoleRouter>;

/**
 * tRPC's TanStack Query integration: `const trpc = useTRPC()` then
 * `useQuery(trpc.audit.search.queryOptions(input))`; mutations through `useConsoleMutation(
 * trpc.x.create.mutationOptions(), { invalidates: [trpc.x] })` (use-console-mutation.ts).
 */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<ConsoleRouter>();

/** A 4xx (not signed in, not allowed, not found, invalid) will not change on a retry. */
function worthRetrying(failures: number, error: unknown): boolean {
  if (error instanceof TRPCClientError) {
    const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
    if (status !== undefined && status < 500) return false;
  }
  return failures < 2;
}

export function ConsoleQueryProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, retry: worthRetrying, refetchOnWindowFocus: false } } }),
  );
  const [trpcClient] = useState(() => createTRPCClient<ConsoleRouter>({ links: [httpBatchLink({ url: "/console/api/trpc" })] }));
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}

/** The message to show for a failed query or mutation. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : "Something went wrong";
}

/** A failed mutation's field messages as the console's error formatter sends them (`data.fields`), or none. */
export function fieldErrorsOf(error: unknown): Record<string, string[]> {
  if (error instanceof TRPCClientError) return ((error.data as { fields?: Record<string, string[]> } | undefined)?.fields ?? {}) as Record<string, string[]>;
  return {};
}
