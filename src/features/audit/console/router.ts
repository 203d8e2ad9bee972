import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { auditRow, auditSearchInput, searchAudit } from "../audit";

/** The console's audit log (decisions §12): who, when, what, before and after. */
export const auditConsoleRouter = router({
  search: staffProcedure("audit.read")
    .input(auditSearchInput)
    .output(z.array(auditRow))
    .query(({ ctx, input }) => searchAudit(ctx.db, input)),
});
