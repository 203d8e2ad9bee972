import { createConsoleApiHandler } from "@/composition/console-api";
import { currentUser } from "@/features/console/auth-options";

export const dynamic = "force-dynamic";

const handler = createConsoleApiHandler(currentUser);

export { handler as GET, handler as POST };
