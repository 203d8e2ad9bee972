import { sql } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { webhookDeliveryReplays } from "../webhooks/replays.table";
import { webhookAttempts, webhookDeliveries, webhookEvents } from "../webhooks/webhooks.table";
import { type BatchOptions, countOf, cutoff, deleteInBatches, idArray, pause } from "./batches";

/**
 * Webhook history past its window (decisions §14 Retention, `RETENTION_DELIVERIES_DAYS`;
 * docs/decisions.md, Hardening: retention): a delivery goes once it is final (`delivered` or `failed`) and
 * unchanged for the window (`updated_at`: a failed delivery retried by an operator starts again),
 * with its attempts and its replay mark; an event goes once none of its deliveries remain and it is
 * older than the window (an event no endpoint was subscribed to, too).
 */
export type DeliveryCounts = { webhook_deliveries: number; webhook_attempts: number; webhook_delivery_replays: number; webhook_events: number };

const FINAL = sql`status in ('delivered', 'failed')`;

/** The final deliveries older than the window, walked by the partial index `webhook_deliveries_final_idx`. */
const prunableDeliveries = (days: number, after?: string) =>
  sql`select id, updated_at as cursor from ${webhookDeliveries} where ${FINAL} and updated_at < ${cutoff(days)}
    ${after === undefined ? sql`` : sql`and updated_at >= ${after}::timestamptz`}`;

/** Events older than the window none of whose deliveries stays, walked by `webhook_events_created_idx`. */
const prunableEvents = (days: number, { afterDeliveries, after }: { afterDeliveries: boolean; after?: string }) => sql`
  select e.id, e.created_at as cursor from ${webhookEvents} e
  where e.created_at < ${cutoff(days)} ${after === undefined ? sql`` : sql`and e.created_at >= ${after}::timestamptz`}
    and not exists (select 1 from ${webhookDeliveries} d where d.event_id = e.id
      ${afterDeliveries ? sql`and not (d.${FINAL} and d.updated_at < ${cutoff(days)})` : sql``})`;

export async function pruneDeliveries(db: Db, days: number, options: BatchOptions): Promise<DeliveryCounts> {
  const counts: DeliveryCounts = { webhook_deliveries: 0, webhook_attempts: 0, webhook_delivery_replays: 0, webhook_events: 0 };
  let after: string | undefined;
  for (;;) {
    const started = performance.now();
    // One batch, one short transaction: the deliveries, their attempts and replay marks, then the
    // events this batch left without deliveries.
    const batch = await db.transaction(async (tx) => {
      const [row] = (await tx.execute(sql`
        with batch as (${prunableDeliveries(days, after)} order by cursor limit ${options.batchSize} for update skip locked),
        attempts as (delete from ${webhookAttempts} a using batch where a.delivery_id = batch.id returning 1),
        replays as (delete from ${webhookDeliveryReplays} r using batch where r.delivery_id = batch.id returning 1),
        gone as (delete from ${webhookDeliveries} d using batch where d.id = batch.id returning d.event_id)
        select (select count(*)::int from gone) as deliveries, (select count(*)::int from attempts) as attempts,
          (select count(*)::int from replays) as replays, (select coalesce(array_agg(distinct event_id), '{}') from gone) as events,
          (select max(cursor)::text from batch) as last`)) as unknown as Array<{
        deliveries: number;
        last: string | null;
        attempts: number;
        replays: number;
        events: Array<string | number>;
      }>;
      let events = 0;
      if (row.events.length > 0) {
        // A delivery another run deletes at this moment still counts here: its event is left for
        // the sweep of orphaned events below (or the next run).
        const gone = (await tx.execute(sql`
          delete from ${webhookEvents} e where e.id = any(${idArray(row.events)}::bigint[]) and e.created_at < ${cutoff(days)}
            and not exists (select 1 from ${webhookDeliveries} d where d.event_id = e.id)
          returning 1`)) as unknown as unknown[];
        events = gone.length;
      }
      return { ...row, events };
    });
    counts.webhook_deliveries += batch.deliveries;
    counts.webhook_attempts += batch.attempts;
    counts.webhook_delivery_replays += batch.replays;
    counts.webhook_events += batch.events;
    options.onBatch?.({ table: "webhook_deliveries", rows: batch.deliveries, ms: performance.now() - started });
    if (batch.deliveries < options.batchSize || batch.last === null) break;
    after = batch.last;
    await pause(options.pauseMs);
  }
  counts.webhook_events += await deleteInBatches(db, webhookEvents, (after) => prunableEvents(days, { afterDeliveries: false, after }), options);
  return counts;
}

/** What `pruneDeliveries` would delete now (a dry run), without deleting. */
export async function countPrunableDeliveries(db: Db, days: number): Promise<DeliveryCounts> {
  const prunable = prunableDeliveries(days);
  return {
    webhook_deliveries: await countOf(db, prunable),
    webhook_attempts: await countOf(db, sql`select 1 from ${webhookAttempts} a where a.delivery_id in (select id from (${prunable}) p)`),
    webhook_delivery_replays: await countOf(db, sql`select 1 from ${webhookDeliveryReplays} r where r.delivery_id in (select id from (${prunable}) p)`),
    webhook_events: await countOf(db, prunableEvents(days, { afterDeliveries: true })),
  };
}
