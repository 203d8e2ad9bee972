import type Stripe from "stripe";
import type { Db } from "../../../server/db/client";

/**
 * A handler of one Stripe event type (decisions §18 Stripe's webhooks), run once per event id by the
 * `stripe_event__handle` job. It must decide from the object's state (retrieved again when order
 * matters), never from the arrival order: Stripe sends events in no guaranteed order, and may send
 * one twice. It may run again after a failure, so it changes nothing twice.
 */
export type StripeEventHandler = (db: Db, event: Stripe.Event) => Promise<void>;
