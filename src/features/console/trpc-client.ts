"use client";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { consoleRouter } from "./router";

/** The console's tRPC client: same router, same types as the server. */
export const consoleClient = createTRPCClient<typeof consoleRouter>({
  links: [httpBatchLink({ url: "/console/api/trpc" })],
});
