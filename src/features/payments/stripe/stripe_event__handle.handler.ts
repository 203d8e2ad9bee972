import { and, eq, isNull } from "drizzle-orm";
import type Stripe from "stripe";
import { getDb } from "../../../server/db/client";
import { defineTask } from "../../../server/jobs/define-task";
import { STRIPE_EVENT_HANDLERS } from "./event-handlers";
import { stripeEventHandleDeclaration } from "./stripe_event__handle";
import { stripeEvents } from "./stripe-events.table";

/**
 * Handles one received Stripe event once: a handled row is skipped; a handler that fails leaves it
 * unhandled and graphile-worker retries the job with its backoff (handlers are idempotent: they
 * read the object's state, so a retry after a partial run changes nothing twice).
 */
export const stripeEventHandle = defineTask({
  ...stripeEventHandleDeclaration,
  handler: async ({ event_id }) => {
    const db = await getDb();
    const [row] = await db.select().from(stripeEvents).where(eq(stripeEvents.id, event_id));
    if (!row || row.handledAt) return;
    const handler = STRIPE_EVENT_HANDLERS[row.type];
    if (handler) await handler(db, row.payload as Stripe.Event);
    await db
      .update(stripeEvents)
      .set({ handledAt: new Date() })
      .where(and(eq(stripeEvents.id, event_id), isNull(stripeEvents.handledAt)));
  },
});
