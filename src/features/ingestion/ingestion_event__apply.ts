import { z } from "zod";
import { getDb } from "../../server/db/client";
import { defineTask } from "../../server/jobs/define-task";
import { applyIngestionEvent, pendingEvent } from "./apply";

/**
 * Applies one stored ingestion event. Events of one prospect apply one at a time (the prospect's
 * lock), and `occurred_at` decides what is stale whatever order they arrive in.
 */
export const ingestionEventApply = defineTask({
  name: "ingestion_event__apply",
  payload: z.object({ eventId: z.number().int() }),
  handler: async ({ eventId }) => {
    const db = await getDb();
    await db.transaction(async (tx) => {
      const event = await pendingEvent(tx, eventId);
      if (event) await applyIngestionEvent(tx, event);
    });
  },
});
