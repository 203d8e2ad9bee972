import { and, desc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { type AuditActor, type ClientActor, recordAudit } from "../../audit/audit";
import { reenqueueDeliveries, retryFoundDelivery } from "../deliveries";
import { webhookDeliveries, webhookEndpoints } from "../webhooks.table";
import { BULK_RETRY_STATUSES, type BulkRetry, bulkRetries } from "./bulk-retries.table";
import { CONSOLE_DELIVERY_MESSAGES as M } from "./messages";
import { type DeliveryFilter, deliveryFilter, filterConditions, ownerIdOf } from "./search";

/** The audit label of an actor, kept on a bulk retry. */
export const labelOf = (actor: AuditActor | ClientActor) =>
  "user" in actor ? actor.user.email : "cli" in actor ? `cli:${actor.cli}` : `client:${actor.client}`;

/**
 * Retry one delivery from the console (operators only): the Partner API's retry (`retryFoundDelivery`:
 * 409 unless failed or delivered, then a fresh schedule under the same id), audited in its transaction.
 * A delivery of a deleted endpoint cannot be retried (the API route answers 404 for it too).
 */
export async function retryDeliveryAsStaff(db: Db, actor: AuditActor, id: string) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ delivery: webhookDeliveries, endpointDeletedAt: webhookEndpoints.deletedAt })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.id, id))
      .for("update", { of: webhookDeliveries });
    if (!row) throw errors.notFound(M.deliveryNotFound);
    if (row.endpointDeletedAt) throw errors.conflict(M.endpointDeleted);
    const before = row.delivery;
    const after = await retryFoundDelivery(tx, before);
    await recordAudit(tx, actor, {
      action: "deliveries.retry",
      subject: { type: "webhook_delivery", id },
      ownerId: before.ownerId,
      before: { status: before.status, attempt_number: before.attemptNumber, last_attempt_failure_reason: before.lastAttemptFailureReason },
      after: { status: after.status, attempt_number: after.attempt_number },
    });
    return after;
  });
}

/** A bulk retry's filter: the search's, less its status (always `failed` from the console and the CLI). */
export const bulkRetryFilter = deliveryFilter.omit({ status: true });

/** The statuses a bulk retry may re-enqueue: the console's `failed`, and a partner's `retrying` too (decisions §16 Recovery). */
export const BULK_RETRYABLE = ["failed", "retrying"] as const;

/**
 * A stored bulk retry's filter: the console's, or a partner's recovery, which also names the status
 * it re-enqueues (absent: `failed`). Kept in the same `filter` column, so the console lists both.
 */
const storedFilter = bulkRetryFilter.extend({ status: z.enum(BULK_RETRYABLE).optional() });
export type BulkRetryFilter = z.infer<typeof storedFilter>;

/** A filter from the CLI or a stored bulk retry: a bad value is the operator's invalid input, not a crash. */
export function parseFilter(input: unknown): BulkRetryFilter {
  const parsed = storedFilter.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw errors.invalid(`${issue.path.join(".") || "filter"}: ${issue.message}`, String(issue.path[0] ?? "filter"));
}

/** The console's and the CLI's filter: their bulk retries re-enqueue failed deliveries only. */
export function parseConsoleFilter(input: unknown): BulkRetryFilter {
  const { status: _, ...filter } = parseFilter(input);
  return filter;
}

/** The failed (or, for a partner's recovery, retrying) deliveries a bulk retry matches: of live endpoints, created up to its cutoff. */
export async function failedConditions(db: Tx, filter: BulkRetryFilter, cutoff: Date) {
  const conditions = filterConditions({ ...filter, status: filter.status ?? "failed" } as DeliveryFilter, await ownerIdOf(db, filter));
  conditions.push(lte(webhookDeliveries.createdAt, cutoff));
  conditions.push(
    sql`exists (select 1 from ${webhookEndpoints} where ${webhookEndpoints.id} = ${webhookDeliveries.endpointId} and ${isNull(webhookEndpoints.deletedAt)})`,
  );
  return and(...conditions);
}

/** The dry run: how many failed deliveries the filter matches now. */
export async function countFailedDeliveries(db: Tx, input: z.input<typeof bulkRetryFilter>): Promise<{ matched: number }> {
  const filter = parseConsoleFilter(input);
  const [row] = await db
    .select({ matched: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(await failedConditions(db, filter, new Date()));
  return { matched: row.matched };
}

/** Deliveries re-enqueued per transaction: each chunk's progress is visible as it commits (smaller chunks: shorter stalls for the others' statements). */
export const BULK_RETRY_CHUNK = 1000;
/** The longest pause between two chunks (a chunk slowed by a busy database does not stall the retry). */
const BULK_RETRY_MAX_PAUSE_MS = 2_000;

/**
 * Runs a queued bulk retry: takes it (once: a second run finds it taken), reads the failed
 * deliveries matching its filter up to its cutoff a chunk at a time, oldest first, and re-enqueues
 * each chunk with the Partner API retry's semantics (`reenqueueDeliveries`), recording progress after
 * it and then pausing as long as it took (at most 2 s), so a retry of 100,000 takes at most half the
 * database's time while other endpoints' deliveries and the API go on. A delivery no longer failed
 * by then (retried meanwhile) is skipped; one that failed again after its chunk is not taken twice.
 *
 * `resume` (the job): a bulk retry still `running` is taken too. Its one job runs again only when
 * the worker that ran it died mid-way (a failed run marks the row `failed`; a dead worker's job is
 * unlocked by `system__unlock_stale_workers`), so the row would otherwise stay `running` forever.
 * Resuming is safe: the deliveries already re-enqueued are no longer failed and are not matched
 * again, and the progress goes on from what the dead run recorded.
 */
export async function runBulkRetry(db: Db, id: number, options: { resume?: boolean } = {}): Promise<BulkRetry | undefined> {
  const takeable = options.resume ? inArray(bulkRetries.status, ["queued", "running"]) : eq(bulkRetries.status, "queued");
  const [bulk] = await db
    .update(bulkRetries)
    .set({ status: "running", startedAt: sql`coalesce(${bulkRetries.startedAt}, now())` })
    .where(and(eq(bulkRetries.id, id), takeable))
    .returning();
  if (!bulk) return undefined;
  try {
    const filter = parseFilter(bulk.filter);
    const conditions = await failedConditions(db, filter, bulk.cutoff);
    let enqueued = bulk.enqueued;
    let chunkMs = 0;
    // Read a chunk at a time in (created_at, id) order, the order of every index the filters use: a
    // list of 100,000 ids read at once took the web process's event loop for ~100 ms to parse.
    let after: { createdAt: string; id: string } | undefined;
    for (;;) {
      // Every chunk after the first waits twice as long as the one before it took: the database spends
      // at most a third of its time on the retry, and the other endpoints' claims and the API's writes
      // keep theirs (an endpoint takes 1,000 a minute at most: a faster retry would send nothing sooner).
      if (after) await new Promise((resolve) => setTimeout(resolve, Math.min(BULK_RETRY_MAX_PAUSE_MS, 2 * chunkMs)));
      const chunkStarted = performance.now();
      const page = await db
        .select({ id: webhookDeliveries.id, createdAt: sql<string>`${webhookDeliveries.createdAt}::text` })
        .from(webhookDeliveries)
        .where(
          after ? and(conditions, sql`(${webhookDeliveries.createdAt}, ${webhookDeliveries.id}) > (${after.createdAt}::timestamptz, ${after.id})`) : conditions,
        )
        .orderBy(webhookDeliveries.createdAt, webhookDeliveries.id)
        .limit(BULK_RETRY_CHUNK);
      if (page.length === 0) break;
      await db.transaction(async (tx) => {
        enqueued += await reenqueueDeliveries(
          tx,
          page.map((row) => row.id),
          [filter.status ?? "failed"],
        );
        await tx.update(bulkRetries).set({ enqueued }).where(eq(bulkRetries.id, id));
      });
      chunkMs = performance.now() - chunkStarted;
      after = page[page.length - 1];
      if (page.length < BULK_RETRY_CHUNK) break;
    }
    const [done] = await db.update(bulkRetries).set({ status: "done", enqueued, finishedAt: sql`now()` }).where(eq(bulkRetries.id, id)).returning();
    return done;
  } catch (error) {
    await db
      .update(bulkRetries)
      .set({ status: "failed", error: error instanceof Error ? error.message : String(error), finishedAt: sql`now()` })
      .where(eq(bulkRetries.id, id));
    throw error;
  }
}

export const bulkRetryView = z.object({
  id: z.number().int(),
  filter: z.record(z.string(), z.unknown()),
  matched: z.number().int(),
  enqueued: z.number().int(),
  status: z.enum(BULK_RETRY_STATUSES),
  requested_by: z.string(),
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

export function viewOfBulkRetry(bulk: BulkRetry): z.infer<typeof bulkRetryView> {
  return {
    id: bulk.id,
    filter: bulk.filter,
    matched: bulk.matched,
    enqueued: bulk.enqueued,
    status: bulk.status,
    requested_by: bulk.requestedBy,
    error: bulk.error,
    created_at: bulk.createdAt.toISOString(),
    started_at: bulk.startedAt?.toISOString() ?? null,
    finished_at: bulk.finishedAt?.toISOString() ?? null,
  };
}

/** A bulk retry's progress (matched, enqueued so far, status). */
export async function bulkRetryProgress(db: Tx, id: number) {
  const [bulk] = await db.select().from(bulkRetries).where(eq(bulkRetries.id, id));
  if (!bulk) throw errors.notFound(M.bulkRetryNotFound);
  return viewOfBulkRetry(bulk);
}

/** The latest bulk retries, newest first. */
export async function recentBulkRetries(db: Tx, limit = 20) {
  return (await db.select().from(bulkRetries).orderBy(desc(bulkRetries.id)).limit(limit)).map(viewOfBulkRetry);
}
