import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { ingestionEventRow, recentIngestionEvents } from "./events";

/** The console's ingestion screen (decisions §12 Ingestion): the stored events, by status. */
export const ingestionConsoleRouter = router({
  events: staffProcedure("ingestion.read")
    .input(z.object({ status: z.enum(["pending", "applied", "skipped", "rejected"]).optional() }))
    .output(z.array(ingestionEventRow))
    .query(({ ctx, input }) => recentIngestionEvents(ctx.db, input.status)),
});
