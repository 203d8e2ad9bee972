import { z } from "zod";
import { jsonBody } from "../../../server/http/json-body";
import { addJob } from "../../../server/jobs/define-task";
import { ingestionProcedure } from "../../auth/procedures";
import { ingestionEventApply } from "../ingestion_event__apply";
import { ingestionEvents } from "../ingestion-events.table";
import { INGESTION_MESSAGES } from "../messages";
import { sealNeverEchoed } from "../sealed-fields";

/**
 * `POST {event_base_url}/events` (decisions §8): once authenticated the answer is 202 with an empty
 * body. The event is stored first, as received except its never-echoed values, which are sealed
 * apart (docs/decisions.md, Hardening: ingestion), and applied by a job added in the same
 * transaction. A body that cannot be stored (bad text, too deep) answers 422 (docs/decisions.md, Requests and errors).
 */
export const ingestEventProcedure = ingestionProcedure("events:write")
  .meta({
    openapi: { method: "POST", path: "/events", summary: "Emit a partner event" },
    inputErrors: { kind: "fields", error: INGESTION_MESSAGES.invalid },
    responses: { errors: [400, 401, 403, 415, 422] },
  })
  .input(jsonBody(z.object({}).catchall(z.unknown())))
  .output(z.undefined())
  .mutation(async ({ ctx, input }) => {
    await ctx.db.transaction(async (tx) => {
      const { body, sealedFields } = sealNeverEchoed(input);
      const [event] = await tx.insert(ingestionEvents).values({ clientId: ctx.client.id, body, sealedFields }).returning({ id: ingestionEvents.id });
      await addJob(tx, ingestionEventApply, { eventId: event.id });
    });
    ctx.rest.status = 202;
    return undefined;
  });
