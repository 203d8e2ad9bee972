import { z } from "zod";
import { jsonBody } from "../../../server/http/json-body";
import { addJob } from "../../../server/jobs/define-task";
import { ingestionProcedure } from "../../auth/procedures";
import { ingestionEventApply } from "../ingestion_event__apply";
import { ingestionEvents } from "../tables";

/**
 * `POST {event_base_url}/events` (decisions §8): once authenticated the answer is always 202 with an
 * empty body. The event is stored first, exactly as received, and applied by a job added in the same
 * transaction.
 */
export const ingestEventProcedure = ingestionProcedure("events:write")
  .meta({ openapi: { method: "POST", path: "/events", summary: "Emit a partner event" } })
  .input(jsonBody(z.object({}).catchall(z.unknown())))
  .output(z.undefined())
  .mutation(async ({ ctx, input }) => {
    await ctx.db.transaction(async (tx) => {
      const [event] = await tx.insert(ingestionEvents).values({ clientId: ctx.client.id, body: input }).returning({ id: ingestionEvents.id });
      await addJob(tx, ingestionEventApply, { eventId: event.id });
    });
    ctx.rest.status = 202;
    return undefined;
  });
