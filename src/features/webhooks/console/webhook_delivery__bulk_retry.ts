import { and, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, getDb, type Tx } from "../../../server/db/client";
import { errors, GATEWAY_MESSAGES } from "../../../server/errors";
import { addJob, defineTask } from "../../../server/jobs/define-task";
import { type AuditActor, type ClientActor, recordAudit } from "../../audit/audit";
import { findEndpoint, type Subscriber } from "../endpoints";
import { WEBHOOK_MESSAGES } from "../messages";
import { webhookDeliveries } from "../webhooks.table";
import { type BulkRetry, bulkRetries } from "./bulk-retries.table";
import { type BULK_RETRYABLE, type BulkRetryFilter, type bulkRetryFilter, failedConditions, labelOf, parseConsoleFilter, runBulkRetry } from "./retry";
import { ownerIdOf } from "./search";

/**
 * A bulk retry (decisions §12 Deliveries; a partner's recovery, decisions §16 Recovery), run in
 * chunks with its progress recorded; resumed after a dead worker.
 */
export const webhookDeliveryBulkRetry = defineTask({
  name: "webhook_delivery__bulk_retry",
  payload: z.object({ bulkRetryId: z.number().int().positive() }),
  maxAttempts: 3,
  handler: async ({ bulkRetryId }) => {
    await runBulkRetry(await getDb(), bulkRetryId, { resume: true });
  },
});

/**
 * Records a bulk retry of the deliveries matching `filter` (counted now, up to now as its cutoff),
 * audited in the caller's transaction, and adds its job unless `inline`.
 */
async function recordBulkRetry(
  tx: Tx,
  actor: AuditActor | ClientActor,
  filter: BulkRetryFilter,
  ownerId: number | undefined,
  options: { inline?: boolean },
): Promise<BulkRetry> {
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
    before: { [`${filter.status ?? "failed"}_matching`]: matched },
    after: { filter, matched, status: bulk.status },
  });
  return bulk;
}

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
  const filter = parseConsoleFilter(input);
  return db.transaction(async (tx) => recordBulkRetry(tx, actor, filter, await ownerIdOf(tx, filter), options));
}

/** A partner's recovery request (decisions §16 Recovery). */
export type EndpointRetryInput = { status: (typeof BULK_RETRYABLE)[number]; since: string; until?: string };

/**
 * A partner's self-serve recovery (decisions §16 Recovery; docs/decisions.md "Partner developer:
 * self-serve recovery"): the console's bulk retry, scoped to one endpoint of the subscriber (404
 * otherwise), for deliveries in `status` created at or after `since` and before `until`, up to now.
 * Bounded as the console's is (a cutoff at the request, 1,000 per transaction) and to one at a time
 * per endpoint: while an earlier one is queued or running, 409. Audited with the client as actor.
 */
export async function startEndpointRetry(
  db: Db,
  subscriber: Subscriber,
  endpointId: string,
  input: EndpointRetryInput,
  via: { portalSession?: string } = {},
): Promise<BulkRetry> {
  if (input.until && Date.parse(input.until) <= Date.parse(input.since))
    throw errors.invalidFields(GATEWAY_MESSAGES.requestInvalid, { until: [WEBHOOK_MESSAGES.untilNotAfterSince] });
  return db.transaction(async (tx) => {
    // The endpoint's row lock orders two concurrent requests: the second sees the first's row.
    const endpoint = await findEndpoint(tx, subscriber, endpointId, { lock: true });
    const [running] = await tx
      .select({ id: bulkRetries.id })
      .from(bulkRetries)
      .where(and(sql`${bulkRetries.filter}->>'endpoint_id' = ${endpoint.id}`, inArray(bulkRetries.status, ["queued", "running"])))
      .limit(1);
    if (running) throw errors.conflict(WEBHOOK_MESSAGES.recoveryRunning);
    const filter: BulkRetryFilter = { endpoint_id: endpoint.id, status: input.status, from: input.since, ...(input.until ? { to: input.until } : {}) };
    // From the portal, the audit row names its session too (docs/decisions.md, "Second security review").
    return recordBulkRetry(tx, { client: subscriber.clientId, ...via }, filter, endpoint.ownerId ?? undefined, {});
  });
}
