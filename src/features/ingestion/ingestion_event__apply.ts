import type { Task } from "graphile-worker";
import { z } from "zod";
import { getDb } from "../../server/db/client";
import { applyIngestionEvent, pendingEvent } from "./apply";

const Payload = z.object({ eventId: z.number().int() });

/**
 * Applies one stored ingestion event. Events of one prospect apply one at a time (the prospect's
 * lock), and `occurred_at` decides what is stale whatever order they arrive in.
 */
export const ingestionEventApply: Task = async (payload) => {
  const { eventId } = Payload.parse(payload);
  const db = await getDb();
  await db.transaction(async (tx) => {
    const event = await pendingEvent(tx, eventId);
    if (event) await applyIngestionEvent(tx, event);
  });
};
