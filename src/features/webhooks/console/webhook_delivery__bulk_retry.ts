import { sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, getDb } from "../../../server/db/client";
import { addJob, defineTask } from "../../../server/jobs/define-task";
import { type AuditActor, recordAudit } from "../../audit/audit";
import { webhookDeliveries } from "../webhooks.table";
import { type BulkRetry, bulkRetries } from "./bulk-retries.table";
import { type bulkRetryFilter, failedConditions, labelOf, parseFilter, runBulkRetry } from "./retry";
import { ownerIdOf } from "./search";

/** A console bulk retry (decisions §12 Deliveries), run in chunks with its progress recorded; resumed after a dead worker. */
export const webhookDeliveryBulkRetry = defineTask({
  name: "webhook_delivery__bulk_retry",
  payload: z.object({ bulkRetryId: z.number().int().positive() }),
  maxAttempts: 3,
  handler: async ({ bulkRetryId }) => {
    await runBulkRetry(await getDb(), bulkRetryId, { resume: true });
  },
});

/**
 * Records a bulk retry of the failed deliveries matching `filter` (counted now), audited in the same
 * transaction, and adds its job (`runBulkRetry` does the work). `inline`: no job; the caller runs it
 * (the CLI, which answers `{matched, enqueued}` when done).
 */
export async function startBulkRetry(
  db: Db,
  actor: AuditActor,
  input: z.input<typeof bulkRetryFilter>,
  options: { inline?: boolean } = {},
): Promise<BulkRetry> {
  const filter = parseFilter(input);
  return db.transaction(async (tx) => {
    const ownerId = await ownerIdOf(tx, filter);
    const cutoff = new Date();
    const [{ matched }] = await tx
      .select({ matched: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .where(await failedConditions(tx, filter, cutoff));
    const [bulk] = await tx
      .insert(bulkRetries)
      .values({ filter, ownerId: ownerId ?? null, cutoff, matched, requestedBy: labelOf(actor) })
      .returning();
    if (!options.inline) await addJob(tx, webhookDeliveryBulkRetry, { bulkRetryId: bulk.id });
    await recordAudit(tx, actor, {
      action: "deliveries.bulk_retry",
      subject: { type: "bulk_retry", id: bulk.id },
      ownerId,
      before: { failed_matching: matched },
      after: { filter, matched, status: bulk.status },
    });
    return bulk;
  });
}
