import { sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { type DataKey, EVENT_CATALOG, type EventName } from "./catalog";
import { recordRefsOf } from "./record-refs";
import { deliveryJobsFrom } from "./webhook_delivery__attempt";

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
  const [emitted] = await emitEvents(tx, [input]);
  return emitted;
}

/**
 * `emitEvent` for many events in one statement (a sweep changing thousands of records): the same
 * bodies, subscribers, deliveries and jobs as emitting each alone (jobs carry up to 100 deliveries
 * of the statement). Answers one `{eventId, deliveries}` per input, in input order.
 */
export async function emitEvents(tx: Tx, inputs: readonly EmitInput[]): Promise<{ eventId: number | null; deliveries: number }[]> {
  if (inputs.length === 0) return [];
  const rows = inputs.map((input, ord) => {
    const key: DataKey = EVENT_CATALOG[input.event];
    const refs = recordRefsOf(input.event, input.data);
    return {
      ord,
      owner_id: input.ownerId,
      event: input.event,
      // spec Events, Body: exactly `event`, `property_owner_slug` and `data` keyed by the subject.
      body: JSON.stringify({ event: input.event, property_owner_slug: input.ownerSlug, data: { [key]: input.data } }),
      client_id: input.clientId ?? null,
      building_id: input.building && "id" in input.building ? input.building.id : null,
      building_external_id: input.building && "externalId" in input.building ? (input.building.externalId ?? null) : null,
      source_prospect_id: refs.sourceProspectId,
      policy_number: refs.policyNumber,
      move_out_id: refs.moveOutId,
    };
  });
  // Each input's endpoints are gathered as an array beside it (not joined): the planner cannot
  // count a JSON record set's rows, and a join of two such sets would be a nested loop.
  const answered = await tx.execute<{ ord: number; event_id: number | string | null; deliveries: number }>(sql`
    with input as materialized (
      select * from json_to_recordset(${JSON.stringify(rows)}::json) as i(
        ord int, owner_id int, event text, body text, client_id text, building_id int, building_external_id text,
        source_prospect_id text, policy_number text, move_out_id int)
    ), targeted as materialized (
      select i.*, array(
        select e.id from webhook_endpoints e
        where e.status = 'active' and e.deleted_at is null and i.event = any(e.events)
          and (i.client_id is null or e.client_id = i.client_id)
          and (
            e.owner_id = i.owner_id
            or e.provider_id in (
              select p.id from providers p
              where exists (select 1 from provider_owners po where po.provider_id = p.id and po.owner_id = i.owner_id)
                 or exists (
                   select 1 from provider_buildings pb join properties b on b.id = pb.property_id
                   where pb.provider_id = p.id and b.owner_id = i.owner_id
                     and (b.id = i.building_id or b.external_system_id = i.building_external_id))
                 or (not exists (select 1 from provider_owners po where po.provider_id = p.id)
                     and not exists (select 1 from provider_buildings pb where pb.provider_id = p.id)
                     and exists (select 1 from client_owner_grants g where g.client_id = p.client_id and g.owner_id = i.owner_id))
            )
          )
        order by e.id) as endpoint_ids
      from input i
    ), numbered as materialized (
      -- Ids drawn first, so each delivery names its event by the input it came from.
      select t.*, nextval(pg_get_serial_sequence('webhook_events', 'id')) as event_id
      from (select * from targeted where cardinality(endpoint_ids) > 0 order by ord) t
    ), event as (
      insert into webhook_events (id, owner_id, event, body, source_prospect_id, policy_number, move_out_id)
      select event_id, owner_id, event, body, source_prospect_id, policy_number, move_out_id from numbered order by event_id
      returning id
    ), deliveries as (
      insert into webhook_deliveries (id, event_id, endpoint_id, owner_id, event)
      select 'wd_' || replace(gen_random_uuid()::text, '-', ''), n.event_id, endpoint_id, n.owner_id, n.event
      from numbered n, unnest(n.endpoint_ids) as endpoint_id
      returning id
    ), jobs as (${deliveryJobsFrom(sql`select id, null::timestamptz as run_at from deliveries`)}
    )
    select t.ord, n.event_id, cardinality(t.endpoint_ids) as deliveries, (select count(*) from jobs) as _jobs, (select count(*) from event) as _events
    from targeted t left join numbered n on n.ord = t.ord
    order by t.ord`);
  return answered.map((row) => ({ eventId: row.event_id === null ? null : Number(row.event_id), deliveries: row.deliveries }));
}
