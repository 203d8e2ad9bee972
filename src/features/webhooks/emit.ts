import { sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { type DataKey, EVENT_CATALOG, type EventName } from "./catalog";
import { deliveryJobsFrom } from "./jobs";
import { recordRefsOf } from "./record-refs";

export type EmitInput<E extends EventName = EventName> = {
  ownerId: number;
  ownerSlug: string;
  event: E;
  /** The subject object; it is placed under the event's data key. */
  data: Record<string, unknown>;
  /**
   * The API client whose record the event is about (a prospect's source's client, a move-out's
   * creator): only that client's endpoints receive it. Absent for events about no client's record,
   * which go to every subscribed endpoint of the owner (docs/decisions.md, Webhooks).
   */
  clientId?: string;
  /**
   * The building the event's record belongs to, for providers covering single buildings (spec
   * Delivery mechanics 6): its id (a prospect's resolved building), or its `external_system_id`
   * under the owner (a move-out, which stands alone, names its property by `external_id`). None:
   * an owner-level event, received only by subscriptions covering the whole owner.
   */
  building?: { id: number | null } | { externalId: string | null | undefined };
};

/**
 * spec Events, Delivery mechanics 1: inside the caller's transaction, records the event with its
 * exact body (only when someone is subscribed: an event nobody receives is not kept) and one
 * delivery per `active` endpoint subscribed to it for the owner (the owner's own
 * endpoints and provider subscriptions covering the owner, or the event's building), and adds the job that delivers them
 * (one job per 100 deliveries of the event, attempted side by side). A rolled back change emits
 * nothing; a committed one never loses a delivery. One statement for all of it. Partners sharing an
 * owner are isolated: an event about one client's record reaches only that client's endpoints.
 */
export async function emitEvent(tx: Tx, input: EmitInput): Promise<{ eventId: number | null; deliveries: number }> {
  const key: DataKey = EVENT_CATALOG[input.event];
  // spec Events, Body: exactly `event`, `property_owner_slug` and `data` keyed by the subject.
  const body = JSON.stringify({ event: input.event, property_owner_slug: input.ownerSlug, data: { [key]: input.data } });
  const refs = recordRefsOf(input.event, input.data);
  const buildingId = input.building && "id" in input.building ? input.building.id : null;
  const buildingExternalId = input.building && "externalId" in input.building ? (input.building.externalId ?? null) : null;
  const [row] = await tx.execute<{ event_id: number | null; deliveries: number }>(sql`
    with targets as (
      select e.id from webhook_endpoints e
      where e.status = 'active' and e.deleted_at is null and ${input.event} = any(e.events)
        and (${input.clientId ?? null}::text is null or e.client_id = ${input.clientId ?? null})
        and (
          e.owner_id = ${input.ownerId}
          or e.provider_id in (
            select p.id from providers p
            where exists (select 1 from provider_owners po where po.provider_id = p.id and po.owner_id = ${input.ownerId})
               or exists (
                 select 1 from provider_buildings pb join properties b on b.id = pb.property_id
                 where pb.provider_id = p.id and b.owner_id = ${input.ownerId}
                   and (b.id = ${buildingId}::int or b.external_system_id = ${buildingExternalId}::text))
               or (not exists (select 1 from provider_owners po where po.provider_id = p.id)
                   and not exists (select 1 from provider_buildings pb where pb.provider_id = p.id)
                   and exists (select 1 from client_owner_grants g where g.client_id = p.client_id and g.owner_id = ${input.ownerId}))
          )
        )
    ), event as (
      insert into webhook_events (owner_id, event, body, source_prospect_id, policy_number, move_out_id)
      select ${input.ownerId}, ${input.event}, ${body}, ${refs.sourceProspectId}, ${refs.policyNumber}, ${refs.moveOutId}::int
      where exists (select 1 from targets)
      returning id
    ), deliveries as (
      insert into webhook_deliveries (id, event_id, endpoint_id, owner_id, event)
      select 'wd_' || replace(gen_random_uuid()::text, '-', ''), event.id, targets.id, ${input.ownerId}, ${input.event} from event, targets
      returning id
    ), jobs as (${deliveryJobsFrom(sql`select id, null::timestamptz as run_at from deliveries`)}
    )
    select (select id from event) as event_id, (select count(*)::int from deliveries) as deliveries, (select count(*) from jobs) as _jobs`);
  return { eventId: row.event_id === null ? null : Number(row.event_id), deliveries: row.deliveries };
}
