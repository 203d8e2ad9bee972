import { createConsoleApiHandler } from "@/composition/console-api";
import { consoleUserOf } from "@/features/console/auth-options";

export const dynamic = "force-dynamic";

const handler = createConsoleApiHandler((req) => consoleUserOf(req.headers));

export { handler as GET, handler as POST };
