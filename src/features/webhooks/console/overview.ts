import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../../server/db/client";
import { ENDPOINT_STATUSES } from "../webhooks.table";

export const deliveryOverview = z.object({
  generated_at: z.string(),
  /** The last 24 hours, one point per hour (oldest first); an attempt succeeds when it has no failure reason. */
  hourly: z.array(
    z.object({
      hour: z.string(),
      attempts: z.number().int(),
      succeeded: z.number().int(),
      success_rate: z.number().nullable(),
      p50_ms: z.number().nullable(),
      p95_ms: z.number().nullable(),
    }),
  ),
  totals: z.object({
    attempts: z.number().int(),
    succeeded: z.number().int(),
    success_rate: z.number().nullable(),
    p95_ms: z.number().nullable(),
    failed_deliveries: z.number().int(),
  }),
  /** Deliveries not yet settled, by status. */
  open_deliveries: z.object({ pending: z.number().int(), delivering: z.number().int(), retrying: z.number().int(), rate_limited: z.number().int() }),
  /** graphile-worker's queue: jobs due and free, running, and scheduled later; the busiest tasks due. */
  queue: z.object({
    due: z.number().int(),
    running: z.number().int(),
    scheduled: z.number().int(),
    due_by_task: z.array(z.object({ task: z.string(), due: z.number().int() })),
  }),
  /** Endpoints with failed attempts in the last 24 hours, or not active; the latest failure first. */
  failing_endpoints: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      destination_url: z.string(),
      status: z.enum(ENDPOINT_STATUSES),
      owner_slug: z.string().nullable(),
      attempts: z.number().int(),
      failed_attempts: z.number().int(),
      last_failure_at: z.string().nullable(),
      last_failure_reason: z.string().nullable(),
    }),
  ),
  /**
   * The endpoints holding the most attempts in flight now (deliveries `delivering`, counted in the
   * database so every worker process's attempts show), most first; since when the oldest was claimed.
   */
  endpoints_in_flight: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      destination_url: z.string(),
      status: z.enum(ENDPOINT_STATUSES),
      owner_slug: z.string().nullable(),
      in_flight: z.number().int(),
      oldest_since: z.string(),
    }),
  ),
});

export type DeliveryOverview = z.infer<typeof deliveryOverview>;

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
const rate = (succeeded: number, attempts: number) => (attempts === 0 ? null : succeeded / attempts);
const iso = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string).toISOString());

/**
 * The console's overview (docs/decisions.md, "Console: UI kit, prospects, overview, audit"): delivery success rate and latency per hour over the last
 * 24 hours, the queue's depth, the failing endpoints and the endpoints holding the most attempts in flight. Reads attempts by `started_at`.
 */
export async function deliveryOverviewOf(db: Tx): Promise<DeliveryOverview> {
  const hourly = await db.execute<{ hour: Date | string; attempts: number; succeeded: number; p50: number | null; p95: number | null }>(sql`
    with hours as (
      select generate_series(date_trunc('hour', now()) - interval '23 hours', date_trunc('hour', now()), interval '1 hour') as hour
    ), agg as (
      select date_trunc('hour', started_at) as hour, count(*)::int as attempts,
             count(*) filter (where failure_reason is null)::int as succeeded,
             percentile_cont(0.5) within group (order by duration_ms) as p50,
             percentile_cont(0.95) within group (order by duration_ms) as p95
      from webhook_attempts
      where started_at >= date_trunc('hour', now()) - interval '23 hours'
      group by 1
    )
    select hours.hour, coalesce(agg.attempts, 0) as attempts, coalesce(agg.succeeded, 0) as succeeded, agg.p50, agg.p95
    from hours left join agg using (hour) order by hours.hour`);

  const [totals] = await db.execute<{ attempts: number; succeeded: number; p95: number | null; failed: number }>(sql`
    select count(*)::int as attempts, count(*) filter (where failure_reason is null)::int as succeeded,
           percentile_cont(0.95) within group (order by duration_ms) as p95,
           (select count(*)::int from webhook_deliveries
             where status = 'failed' and updated_at >= date_trunc('hour', now()) - interval '23 hours') as failed
    from webhook_attempts where started_at >= date_trunc('hour', now()) - interval '23 hours'`);

  const open = await db.execute<{ status: string; count: number }>(sql`
    select status, count(*)::int as count from webhook_deliveries
    where status in ('pending', 'retrying', 'rate_limited', 'delivering') group by status`);
  const openBy = Object.fromEntries([...open].map((row) => [row.status, Number(row.count)]));

  const [queue] = await db.execute<{ due: number; running: number; scheduled: number }>(sql`
    select count(*) filter (where locked_at is null and run_at <= now())::int as due,
           count(*) filter (where locked_at is not null)::int as running,
           count(*) filter (where locked_at is null and run_at > now())::int as scheduled
    from graphile_worker.jobs`);
  const byTask = await db.execute<{ task: string; due: number }>(sql`
    select task_identifier as task, count(*)::int as due from graphile_worker.jobs
    where locked_at is null and run_at <= now() group by 1 order by 2 desc, 1 limit 5`);

  const failing = await db.execute<{
    id: string;
    name: string;
    destination_url: string;
    status: (typeof ENDPOINT_STATUSES)[number];
    owner_slug: string | null;
    attempts: number;
    failed_attempts: number;
    last_failure_at: Date | string | null;
    last_failure_reason: string | null;
  }>(sql`
    with recent as (
      select d.endpoint_id, count(*)::int as attempts,
             count(*) filter (where a.failure_reason is not null)::int as failed_attempts,
             max(a.started_at) filter (where a.failure_reason is not null) as last_failure_at,
             (array_agg(a.failure_reason order by a.started_at desc) filter (where a.failure_reason is not null))[1] as last_failure_reason
      from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
      where a.started_at >= now() - interval '24 hours'
      group by d.endpoint_id
    )
    select ep.id, ep.name, ep.destination_url, ep.status, o.slug as owner_slug,
           coalesce(r.attempts, 0) as attempts, coalesce(r.failed_attempts, 0) as failed_attempts, r.last_failure_at, r.last_failure_reason
    from webhook_endpoints ep
    left join recent r on r.endpoint_id = ep.id
    left join property_owners o on o.id = ep.owner_id
    where ep.deleted_at is null and (r.failed_attempts > 0 or ep.status <> 'active')
    order by r.last_failure_at desc nulls last, coalesce(r.failed_attempts, 0) desc, ep.id
    limit 10`);

  // Only `delivering` rows, through their partial index (webhook_deliveries_lease_idx): as many as are in flight.
  const inFlight = await db.execute<{
    id: string;
    name: string;
    destination_url: string;
    status: (typeof ENDPOINT_STATUSES)[number];
    owner_slug: string | null;
    in_flight: number;
    oldest_since: Date | string;
  }>(sql`
    select ep.id, ep.name, ep.destination_url, ep.status, o.slug as owner_slug, f.in_flight, f.oldest_since
    from (
      select endpoint_id, count(*)::int as in_flight, min(updated_at) as oldest_since
      from webhook_deliveries where status = 'delivering' group by endpoint_id
      order by 2 desc, 1 limit 10
    ) f
    join webhook_endpoints ep on ep.id = f.endpoint_id
    left join property_owners o on o.id = ep.owner_id
    order by f.in_flight desc, ep.id`);

  const hours = [...hourly].map((row) => ({
    hour: iso(row.hour) as string,
    attempts: Number(row.attempts),
    succeeded: Number(row.succeeded),
    success_rate: rate(Number(row.succeeded), Number(row.attempts)),
    p50_ms: num(row.p50),
    p95_ms: num(row.p95),
  }));
  return {
    generated_at: new Date().toISOString(),
    hourly: hours,
    totals: {
      attempts: Number(totals.attempts),
      succeeded: Number(totals.succeeded),
      success_rate: rate(Number(totals.succeeded), Number(totals.attempts)),
      p95_ms: num(totals.p95),
      failed_deliveries: Number(totals.failed),
    },
    open_deliveries: {
      pending: openBy.pending ?? 0,
      delivering: openBy.delivering ?? 0,
      retrying: openBy.retrying ?? 0,
      rate_limited: openBy.rate_limited ?? 0,
    },
    queue: {
      due: Number(queue.due),
      running: Number(queue.running),
      scheduled: Number(queue.scheduled),
      due_by_task: [...byTask].map((row) => ({ task: row.task, due: Number(row.due) })),
    },
    failing_endpoints: [...failing].map((row) => ({
      ...row,
      attempts: Number(row.attempts),
      failed_attempts: Number(row.failed_attempts),
      last_failure_at: iso(row.last_failure_at),
    })),
    endpoints_in_flight: [...inFlight].map((row) => ({ ...row, in_flight: Number(row.in_flight), oldest_since: iso(row.oldest_since) as string })),
  };
}
