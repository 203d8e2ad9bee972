import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { WEBHOOK_MESSAGES } from "./messages";
import { RATE_LIMIT_PER_MINUTE } from "./schedule";
import type { WebhookDelivery, WebhookEndpoint } from "./webhooks.table";

/** A claimed delivery with what its attempt needs; `withinRateLimit` is false for the excess. */
export type ClaimedDelivery = {
  delivery: WebhookDelivery;
  endpoint: WebhookEndpoint;
  event: { event: string; body: string };
  withinRateLimit: boolean;
  /** When the endpoint's rate window this claim counted into started (its limit lifts 60 s later). */
  windowStartedAt: Date | null;
  /** Deliveries counted into that window, this claim's included. */
  windowCount: number | null;
};

type Row = {
  delivery: Record<string, unknown>;
  endpoint: Record<string, unknown>;
  event: string;
  body: string;
  window_count: number | null;
  window_added: number | null;
  window_started_at: string | Date | null;
};

const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

/**
 * Claims the due deliveries among `ids` with a lease, in one statement, together with their
 * endpoints and event bodies, and counts them into their endpoints' rate windows (spec: 1000
 * deliveries per minute per endpoint, a window of one minute started by the first delivery after
 * the previous window ended). Windows are counted with one INSERT … ON CONFLICT in endpoint order:
 * each window row is locked once, at its latest version, and concurrent claims for overlapping
 * endpoints queue in the same order instead of deadlocking. Deliveries that are not due, already
 * settled or claimed by another worker are skipped.
 *
 * spec Delivery mechanics 1 (only `active` endpoints receive deliveries) and Webhook delivery
 * status (`failed` only after attempt 25): the same statement parks the due deliveries of a
 * `suspended` or `disabled` endpoint instead of claiming them. A parked delivery keeps its status,
 * attempt number and last failure reason, loses its schedule (`next_retry_at` null: it waits for
 * the endpoint) and has no job; the endpoint's return to `active` re-enqueues it
 * (`resumeEndpointDeliveries`). A delivery of a deleted endpoint (one recorded by an event that
 * raced the deletion) ends `failed`, as the deletion ended the others.
 */
export async function claimDeliveries(db: Db, ids: string[], now: Date, leaseUntil: Date): Promise<ClaimedDelivery[]> {
  const windowStart = new Date(now.getTime() - 60_000).toISOString();
  const at = now.toISOString();
  // Checked again on the row each UPDATE locks: a concurrent claim or settle may have changed it since
  // this statement's snapshot (an early job must not claim a delivery rescheduled meanwhile).
  const isDue = sql`d.status in ('pending', 'retrying', 'rate_limited') and (d.next_retry_at is null or d.next_retry_at <= ${at}::timestamptz)`;
  const rows = await db.execute<Row>(sql`
    with due as (
      select d.id, e.status as endpoint_status, e.deleted_at is not null as endpoint_deleted
      from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
      where d.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
        and ${isDue}
      -- Row locks taken here, in id order: two claimers of overlapping batches queue behind each
      -- other instead of deadlocking in the updates below (which then find the rows already locked).
      order by d.id
      for update of d
    ), claimed as (
      update webhook_deliveries d
      set status = 'delivering', lease_expires_at = ${leaseUntil.toISOString()}::timestamptz, updated_at = ${at}::timestamptz
      from due where d.id = due.id and due.endpoint_status = 'active' and not due.endpoint_deleted
        and ${isDue}
      returning d.*
    ), parked as (
      update webhook_deliveries d set next_retry_at = null, updated_at = ${at}::timestamptz
      from due where d.id = due.id and due.endpoint_status <> 'active' and not due.endpoint_deleted
        and ${isDue}
      returning d.id
    ), ended as (
      update webhook_deliveries d
      set status = 'failed', next_retry_at = null, last_attempt_failure_reason = ${WEBHOOK_MESSAGES.endpointDeleted}, updated_at = ${at}::timestamptz
      from due where d.id = due.id and due.endpoint_deleted and ${isDue}
      returning d.id
    ), ${countedAndSelected(at, windowStart)}`);
  return claimedFrom(rows);
}

/** What the dispatcher may take in one claim: its free attempts, and each endpoint's. */
export type ClaimSlots = {
  /** Deliveries this claim may take in all (the process's free attempts). */
  limit: number;
  /** Attempts of one endpoint a process keeps in flight (WEBHOOK_ENDPOINT_MAX_IN_FLIGHT). */
  endpointLimit: number;
  /** Attempts this process already holds, by endpoint id: those endpoints get only their remaining slots. */
  busy: Record<string, number>;
};

/** Deliveries of endpoints that are not active parked, or of deleted ones ended, per claim and endpoint. */
const PARK_PER_ENDPOINT = 500;

/**
 * The dispatcher's claim (docs/decisions.md, "Delivery engine: a dispatcher per worker"): the due
 * deliveries of every endpoint, fairly, in one statement. The endpoints with waiting deliveries are
 * found by a skip scan of `webhook_deliveries_due_idx` (one index probe per endpoint, whatever its
 * backlog); each active endpoint gives at most its free slots of its oldest due deliveries (a
 * LATERAL reading only those index entries, `FOR UPDATE SKIP LOCKED`, so several worker processes
 * share the work and never take one delivery twice; one, while the endpoint has never answered a
 * delivery with a 2xx: slow start); then the first due delivery of every
 * endpoint comes before the second of any, in an order drawn anew each claim, up to `limit`.
 * The chosen ones are claimed with the lease and counted into their rate windows exactly as
 * `claimDeliveries` does, and the same statement parks the scheduled tries of endpoints that are not
 * `active` and ends the deliveries of deleted ones (at most 500 of each endpoint per claim).
 */
export async function claimDueDeliveries(db: Db, slots: ClaimSlots, now: Date, leaseUntil: Date): Promise<ClaimedDelivery[]> {
  if (slots.limit <= 0) return [];
  return claimedFrom(await withoutSorts<Row>(db, claimDueStatement(slots, now, leaseUntil)));
}

/**
 * Runs a claim statement as the dispatcher does. An endpoint's oldest due deliveries come in order
 * from `webhook_deliveries_due_idx`, reading only the rows taken. Right after a mass change (a bulk
 * retry of 100,000 failed deliveries) the statistics still say the endpoint waits for a handful, and
 * the planner would read every open delivery of it through another index and sort them, on every
 * claim (hundreds of ms each, until autovacuum's next ANALYZE): with sorts off the index's order is
 * the plan left.
 */
export function withoutSorts<T extends Record<string, unknown>>(db: Db, statement: SQL): Promise<T[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_sort = off`);
    return [...(await tx.execute<Record<string, unknown>>(statement))] as T[];
  });
}

/** The statement of `claimDueDeliveries` (its plan is tested in claim-plan.int.test.ts). */
export function claimDueStatement(slots: ClaimSlots, now: Date, leaseUntil: Date): SQL {
  const windowStart = new Date(now.getTime() - 60_000).toISOString();
  const at = now.toISOString();
  const waiting = sql.raw(`d.status in ('pending', 'retrying', 'rate_limited')`);
  return sql`
    with recursive waiting_endpoints(id) as (
      (select d.endpoint_id from webhook_deliveries d where ${waiting} order by d.endpoint_id limit 1)
      union all
      select (select d.endpoint_id from webhook_deliveries d where ${waiting} and d.endpoint_id > w.id order by d.endpoint_id limit 1)
      from waiting_endpoints w where w.id is not null
    ), busy as (
      select key as id, value::int as n from jsonb_each_text(${JSON.stringify(slots.busy)}::jsonb)
    ), endpoint as materialized (
      select e.id, e.status, e.deleted_at is not null as deleted,
        least(${slots.limit}::int, greatest(0,
          (case when e.first_delivered_at is null then 1 else ${slots.endpointLimit}::int end) - coalesce(b.n, 0))) as free
      from waiting_endpoints w join webhook_endpoints e on e.id = w.id left join busy b on b.id = e.id
      where w.id is not null
    ), picked as materialized (
      select p.id, p.endpoint_id, p.rank from endpoint e cross join lateral (
        select x.id, x.endpoint_id, row_number() over (order by x.due, x.id) as rank from (
          select d.id, d.endpoint_id, coalesce(d.next_retry_at, d.created_at) as due
          from webhook_deliveries d
          where d.endpoint_id = e.id and ${waiting} and coalesce(d.next_retry_at, d.created_at) <= ${at}::timestamptz
          order by coalesce(d.next_retry_at, d.created_at), d.id
          limit e.free
          for update of d skip locked
        ) x
      ) p
      where e.status = 'active' and not e.deleted and e.free > 0
    ), chosen as (
      select id from picked order by rank, md5(endpoint_id || ${at}) limit ${slots.limit}::int
    ), claimed as (
      -- Chosen rows are locked since \`picked\` (their status rechecked on their latest version as it
      -- locked them), so the key alone finds them: a status condition here would let stale statistics
      -- (few waiting rows, right after a bulk retry) plan a scan of every open delivery joined to these.
      update webhook_deliveries d
      set status = 'delivering', lease_expires_at = ${leaseUntil.toISOString()}::timestamptz, updated_at = ${at}::timestamptz
      from chosen where d.id = chosen.id
      returning d.*
    ), parked as (
      update webhook_deliveries d set next_retry_at = null, updated_at = ${at}::timestamptz
      where d.id in (
        select p.id from endpoint e cross join lateral (
          select d.id from webhook_deliveries d
          where d.endpoint_id = e.id and ${waiting} and d.next_retry_at is not null and d.next_retry_at <= ${at}::timestamptz
          limit ${PARK_PER_ENDPOINT} for update of d skip locked
        ) p
        where e.status <> 'active' and not e.deleted)
      returning d.id
    ), ended as (
      update webhook_deliveries d
      set status = 'failed', next_retry_at = null, last_attempt_failure_reason = ${WEBHOOK_MESSAGES.endpointDeleted}, updated_at = ${at}::timestamptz
      where d.id in (
        select p.id from endpoint e cross join lateral (
          select d.id from webhook_deliveries d
          where d.endpoint_id = e.id and ${waiting} and coalesce(d.next_retry_at, d.created_at) <= ${at}::timestamptz
          limit ${PARK_PER_ENDPOINT} for update of d skip locked
        ) p
        where e.deleted)
      returning d.id
    ), ${countedAndSelected(at, windowStart)}`;
}

/**
 * The end both claims share, after their `claimed` CTE: the claimed rows counted into their
 * endpoints' rate windows (one INSERT … ON CONFLICT in endpoint order: each window row locked once,
 * concurrent claims queueing in the same order instead of deadlocking) and selected with their
 * endpoint, their event and their window's count. The claims' other data-modifying CTEs (parked,
 * ended) run to completion whether or not this reads them (PostgreSQL's WITH).
 */
function countedAndSelected(at: string, windowStart: string) {
  return sql`demand as (
      select c.endpoint_id as id, count(*)::int as n
      from claimed c
      group by c.endpoint_id
    ), slots as (
      insert into webhook_rate_windows as w (endpoint_id, started_at, count)
      select id, ${at}::timestamptz, n from demand order by id
      on conflict (endpoint_id) do update set
        started_at = case when w.started_at <= ${windowStart}::timestamptz then excluded.started_at else w.started_at end,
        count = case when w.started_at <= ${windowStart}::timestamptz then excluded.count else w.count + excluded.count end
      returning w.endpoint_id as id, w.count, w.started_at
    )
    select row_to_json(c) as delivery, row_to_json(e) as endpoint, ev.event, ev.body, s.count as window_count, dm.n as window_added,
      s.started_at as window_started_at
    from claimed c
    join webhook_endpoints e on e.id = c.endpoint_id
    join webhook_events ev on ev.id = c.event_id
    left join demand dm on dm.id = c.endpoint_id
    left join slots s on s.id = c.endpoint_id
    order by c.created_at, c.id`;
}

/** An endpoint whose backlog is looked at: what its rate window still allows, and when the window ends. */
export type WindowLeft = { endpointId: string; remaining: number; windowEnd: Date };

/**
 * The endpoints among `windows` with more deliveries due before their window ends than the window
 * still allows (the dispatcher spreads what is left of those windows: `WindowPace`). Counted as due:
 * the waiting deliveries due by then (at most `remaining + 1` entries of `webhook_deliveries_due_idx`
 * read per endpoint), and what a bulk retry of the endpoint still running is about to make due (a
 * recovery's first chunk alone may fit the window; the next ones will not). One statement.
 */
export async function endpointsBeyondTheirWindow(db: Db, windows: readonly WindowLeft[]): Promise<Set<string>> {
  if (windows.length === 0) return new Set();
  const rows = await db.execute<{ id: string }>(sql`
    select w.id from jsonb_to_recordset(${JSON.stringify(windows.map((w) => ({ id: w.endpointId, remaining: w.remaining, window_end: w.windowEnd.toISOString() })))}::jsonb)
      as w(id text, remaining int, window_end timestamptz)
    where (
      select count(*) from (
        select 1 from webhook_deliveries d
        where d.endpoint_id = w.id and d.status in ('pending', 'retrying', 'rate_limited')
          and coalesce(d.next_retry_at, d.created_at) < w.window_end
        limit w.remaining + 1
      ) due
    ) + coalesce((
      select sum(greatest(0, b.matched - b.enqueued)) from bulk_retries b
      where b.status in ('queued', 'running') and b.filter->>'endpoint_id' = w.id
    ), 0) > w.remaining`);
  return new Set([...rows].map((row) => row.id));
}

/** Claimed rows as attempts to make: within one endpoint, deliveries take the window's slots in order; the ones past 1000 are excess. */
function claimedFrom(rows: readonly Row[]): ClaimedDelivery[] {
  const taken = new Map<string, number>();
  return rows.map((row) => {
    const endpointId = row.endpoint.id as string;
    const position = (taken.get(endpointId) ?? 0) + 1;
    taken.set(endpointId, position);
    const before = (row.window_count ?? 0) - (row.window_added ?? 0);
    return {
      delivery: toDelivery(row.delivery),
      endpoint: toEndpoint(row.endpoint),
      event: { event: row.event, body: row.body },
      withinRateLimit: row.window_count !== null && before + position <= RATE_LIMIT_PER_MINUTE,
      windowStartedAt: date(row.window_started_at),
      windowCount: row.window_count,
    };
  });
}

/** A `webhook_deliveries` row as selected by SQL (snake_case, timestamps as text) in its Drizzle shape. */
export function toDelivery(row: Record<string, unknown>): WebhookDelivery {
  return {
    id: row.id as string,
    eventId: Number(row.event_id),
    endpointId: row.endpoint_id as string,
    ownerId: row.owner_id as number,
    event: row.event as string,
    status: row.status as WebhookDelivery["status"],
    attemptNumber: row.attempt_number as number,
    lastAttemptedAt: date(row.last_attempted_at),
    nextRetryAt: date(row.next_retry_at),
    durationMs: (row.duration_ms as number | null) ?? null,
    lastAttemptFailureReason: (row.last_attempt_failure_reason as string | null) ?? null,
    test: row.test === true,
    leaseExpiresAt: date(row.lease_expires_at),
    createdAt: date(row.created_at) as Date,
    updatedAt: date(row.updated_at) as Date,
  };
}

function toEndpoint(row: Record<string, unknown>): WebhookEndpoint {
  return {
    id: row.id as string,
    ownerId: (row.owner_id as number | null) ?? null,
    providerId: (row.provider_id as number | null) ?? null,
    clientId: (row.client_id as string | null) ?? null,
    name: row.name as string,
    destinationUrl: row.destination_url as string,
    events: row.events as string[],
    status: row.status as WebhookEndpoint["status"],
    suspensionReason: (row.suspension_reason as string | null) ?? null,
    staticHeaders: (row.static_headers as Record<string, string> | null) ?? {},
    deletedAt: date(row.deleted_at),
    firstDeliveredAt: date(row.first_delivered_at),
    createdAt: date(row.created_at) as Date,
    updatedAt: date(row.updated_at) as Date,
  };
}
