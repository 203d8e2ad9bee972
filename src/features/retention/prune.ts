import { getConfig } from "../../server/config";
import type { Db } from "../../server/db/client";
import { type BatchOptions, DEFAULT_BATCH_OPTIONS } from "./batches";
import { countPrunableDeliveries, type DeliveryCounts, pruneDeliveries } from "./deliveries";
import { countPrunableRecords, pruneRecords, type RecordCounts, type RecordWindows } from "./records";

/** Days each kind of record is kept (decisions §14 Retention); 0 keeps it forever. */
export type RetentionWindows = RecordWindows & { deliveries: number };

/** Rows deleted (or, on a dry run, that would be), by table. */
export type RetentionCounts = DeliveryCounts & RecordCounts;

/** The windows as configured (`RETENTION_*_DAYS`). */
export function configuredWindows(): RetentionWindows {
  return getConfig().retentionDays;
}

const NONE: DeliveryCounts = { webhook_deliveries: 0, webhook_attempts: 0, webhook_delivery_replays: 0, webhook_events: 0 };

/**
 * The retention prune (decisions §14 Retention; docs/decisions.md, Hardening: retention): every kind of
 * finished record older than its window, in short batches (`batches.ts`). Safe to run while the
 * service serves and from two processes at once; running it again right after deletes nothing.
 */
export async function pruneExpired(db: Db, windows: RetentionWindows, options: Partial<BatchOptions> = {}): Promise<RetentionCounts> {
  const batches = { ...DEFAULT_BATCH_OPTIONS, ...options };
  const deliveries = windows.deliveries > 0 ? await pruneDeliveries(db, windows.deliveries, batches) : NONE;
  return { ...deliveries, ...(await pruneRecords(db, windows, batches)) };
}

/** What `pruneExpired` would delete now, counted, nothing deleted (`retention run --dry-run`). */
export async function countExpired(db: Db, windows: RetentionWindows): Promise<RetentionCounts> {
  const deliveries = windows.deliveries > 0 ? await countPrunableDeliveries(db, windows.deliveries) : NONE;
  return { ...deliveries, ...(await countPrunableRecords(db, windows)) };
}
