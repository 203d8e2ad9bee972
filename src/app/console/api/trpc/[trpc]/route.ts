import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { currentUser } from "@/features/console/auth-options";
import { consoleRouter } from "@/features/console/router";
import { getDb } from "@/server/db/client";
import { logger } from "@/server/log";

export const dynamic = "force-dynamic";

/** The console's side of the router, over tRPC's own protocol; partner procedures are not served here. */
function handler(req: Request): Promise<Response> {
  return fetchRequestHandler({
    endpoint: "/console/api/trpc",
    req,
    router: consoleRouter,
    createContext: async () => {
      const requestId = crypto.randomUUID();
      return { db: await getDb(), log: logger().child({ requestId }), requestId, user: await currentUser() };
    },
  });
}

export { handler as GET, handler as POST };
