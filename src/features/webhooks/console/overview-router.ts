import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { deliveryOverview, deliveryOverviewOf } from "./overview";

/** The console's landing page (docs/decisions.md, "Console: UI kit, prospects, overview, audit"): read by both roles. */
export const overviewConsoleRouter = router({
  deliveries: staffProcedure("overview.read")
    .output(deliveryOverview)
    .query(({ ctx }) => deliveryOverviewOf(ctx.db)),
});
