import { sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { isEventName } from "./catalog";
import { findEndpoint, type Subscriber } from "./endpoints";
import { exampleBody } from "./event-examples";
import { WEBHOOK_MESSAGES } from "./messages";
import { deliveryJobsFrom } from "./webhook_delivery__attempt";

/** Sent on every attempt of a test event's delivery, retries and replays included. */
export const TEST_HEADER = "X-Webhook-Test";

/**
 * Test events an endpoint takes per minute (docs/decisions.md, "Second security review"): each is a
 * stored event and delivery and up to 25 signed POSTs, so, like the replay of a delivered delivery,
 * they are limited; beyond it 429 with `Retry-After`.
 */
export const TEST_EVENTS_PER_MINUTE = 5;

/**
 * decisions §16 Test events (docs/decisions.md, "Partner developer: test events"): records the
 * example body of `event` (`event-examples.ts`) as an event of the owner and one delivery of it to
 * this endpoint only, marked `test`, with its job, in one transaction. The delivery is then attempted,
 * signed, retried and listed as any other. The event must be in the catalog and subscribed by the
 * endpoint (422 otherwise); another subscriber's endpoint answers 404 before that.
 */
export async function sendTestEvent(db: Tx, subscriber: Subscriber, endpointId: string, event: string): Promise<{ deliveryId: string }> {
  return db.transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, subscriber, endpointId, { lock: true });
    // The endpoint's row lock orders concurrent requests, so the count is exact.
    const [recent] = await tx.execute<{ sent: number; wait: number | null }>(sql`
      select count(*)::int as sent, ceil(extract(epoch from min(created_at) + interval '1 minute' - now()))::int as wait
      from webhook_deliveries where endpoint_id = ${endpoint.id} and test and created_at > now() - interval '1 minute'`);
    if (recent.sent >= TEST_EVENTS_PER_MINUTE)
      throw errors.tooManyRequests(WEBHOOK_MESSAGES.testEventsTooMany(TEST_EVENTS_PER_MINUTE), Math.max(1, recent.wait ?? 60));
    if (!isEventName(event)) throw errors.invalidFields(WEBHOOK_MESSAGES.testEventInvalid, { event: [WEBHOOK_MESSAGES.unknownEvent(event)] });
    if (!endpoint.events.includes(event)) throw errors.invalidFields(WEBHOOK_MESSAGES.testEventInvalid, { event: [WEBHOOK_MESSAGES.notSubscribed(event)] });
    const owner = await ownerOf(tx, subscriber);
    const body = JSON.stringify(exampleBody(event, owner.slug));
    // The example names no record of the service: no record references, so the console's search by
    // record never finds it among the record's real deliveries.
    const [row] = await tx.execute<{ id: string }>(sql`
      with ev as (
        insert into webhook_events (owner_id, event, body) values (${owner.id}, ${event}, ${body}) returning id
      ), delivery as (
        insert into webhook_deliveries (id, event_id, endpoint_id, owner_id, event, test)
        select 'wd_' || replace(gen_random_uuid()::text, '-', ''), ev.id, ${endpoint.id}, ${owner.id}, ${event}, true from ev
        returning id
      ), jobs as (${deliveryJobsFrom(sql`select id, null::timestamptz as run_at from delivery`)}
      )
      select id, (select count(*) from jobs) as _jobs from delivery`);
    return { deliveryId: row.id };
  });
}

/**
 * The owner the test event is about: an owner route's own owner; for a provider subscription, the
 * first owner it covers (its owners, else the owners of its buildings, else the owners granted to
 * its client: spec Delivery mechanics 6), by id, so the same subscription always names the same one.
 */
async function ownerOf(tx: Tx, subscriber: Subscriber): Promise<{ id: number; slug: string }> {
  const [owner] =
    "ownerId" in subscriber
      ? await tx.execute<{ id: number; slug: string }>(sql`select id, slug from property_owners where id = ${subscriber.ownerId}`)
      : await tx.execute<{ id: number; slug: string }>(sql`
          select o.id, o.slug from property_owners o
          where o.id = coalesce(
            (select min(po.owner_id) from provider_owners po where po.provider_id = ${subscriber.providerId}),
            (select min(b.owner_id) from provider_buildings pb join properties b on b.id = pb.property_id where pb.provider_id = ${subscriber.providerId}),
            (select min(g.owner_id) from client_owner_grants g join providers p on p.client_id = g.client_id
             where p.id = ${subscriber.providerId}
               and not exists (select 1 from provider_owners po where po.provider_id = p.id)
               and not exists (select 1 from provider_buildings pb where pb.provider_id = p.id)))`);
  if (!owner) throw errors.invalidFields(WEBHOOK_MESSAGES.testEventInvalid, { event: [WEBHOOK_MESSAGES.noCoveredOwner] });
  return { id: Number(owner.id), slug: owner.slug };
}
