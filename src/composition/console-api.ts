import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getDb } from "../server/db/client";
import { logger } from "../server/log";
import { toAppError } from "../server/to-app-error";
import type { ConsoleUser } from "../server/trpc/context";
import { consoleRouter } from "./router";

/**
 * The console's side of the one router, over tRPC's own protocol (partner procedures are not served
 * here). `currentUser` is the request's signed-in staff member (its next-auth session in the app).
 */
export function createConsoleApiHandler(currentUser: (req: Request) => Promise<ConsoleUser | null | undefined>) {
  return (req: Request): Promise<Response> =>
    fetchRequestHandler({
      endpoint: "/console/api/trpc",
      req,
      router: consoleRouter,
      createContext: async () => {
        const requestId = crypto.randomUUID();
        return { db: await getDb(), log: logger().child({ requestId }), requestId, user: (await currentUser(req)) ?? null };
      },
      // The formatter renders the AppError (server/trpc/init.ts); an internal one is logged here, once, with its cause.
      onError: ({ error, path, ctx }) => {
        if (toAppError(error).kind === "internal") logger().error({ err: error, cause: error.cause, path, requestId: ctx?.requestId }, "unhandled error");
      },
    });
}
