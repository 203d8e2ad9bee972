import { router } from "../../../server/trpc/init";
import { createPortalSession } from "./create-session";

export const portalRestRouter = router({ createSession: createPortalSession });
