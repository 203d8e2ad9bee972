import { and, asc, inArray, isNotNull, lt } from "drizzle-orm";
import { z } from "zod";
import { getConfig } from "../../server/config";
import { type Db, getDb } from "../../server/db/client";
import { defineTask } from "../../server/jobs/define-task";
import { logger } from "../../server/log";
import { applyRecordedIntent } from "./apply-intent";
import { paymentCharges } from "./payments.table";
import type { PaymentPort } from "./port";
import { paymentPortFor } from "./port-for";

/** A payment whose outcome we have not heard of for this long is asked about (decisions §18 Reconciliation). */
export const RECONCILE_AFTER_MS = 10 * 60 * 1000;
/** Statuses that wait on something we may never hear of: the renter's bank, the network, a closed tab. */
export const UNRESOLVED_STATUSES = ["pending", "requires_action", "processing"] as const;
const BATCH = 100;

/**
 * Resolves the PaymentIntents we never heard the end of (decisions §18 Reconciliation: a lost
 * webhook, a tab closed after 3-D Secure): every recorded intent still undecided ten minutes after
 * its last change is retrieved and applied through the same once-only path the return and the
 * webhook use (`applyRecordedIntent`), so whichever comes first pays an application or a
 * delinquency once. Oldest first, a batch per run; a row still undecided is
 * touched (its `updated_at` moves) by `recordOutcome` only when its status changes, so the next run
 * asks again, and the console lists it after an hour.
 */
export async function reconcilePayments(db: Db, port: PaymentPort, now = new Date()): Promise<{ checked: number; resolved: number }> {
  const rows = await db
    .select()
    .from(paymentCharges)
    .where(
      and(
        isNotNull(paymentCharges.intentId),
        inArray(paymentCharges.status, [...UNRESOLVED_STATUSES]),
        lt(paymentCharges.updatedAt, new Date(now.getTime() - RECONCILE_AFTER_MS)),
      ),
    )
    .orderBy(asc(paymentCharges.updatedAt))
    .limit(BATCH);
  let resolved = 0;
  for (const row of rows) {
    if (row.processor !== port.name) continue;
    try {
      if ((await applyRecordedIntent(db, port, row)).decided) resolved += 1;
    } catch (error) {
      // One intent the processor will not answer for now never holds up the others.
      logger().warn({ err: error, paymentId: row.id }, "payment reconciliation: intent not resolved");
    }
  }
  return { checked: rows.length, resolved };
}

/** Every five minutes on the processor of this deployment; nothing to do with the simulated one (it answers at once). */
export const paymentReconcile = defineTask({
  name: "payment__reconcile",
  payload: z.object({}).passthrough(),
  maxAttempts: 1,
  everySeconds: () => 300,
  handler: async () => {
    const port = paymentPortFor(getConfig());
    if (!port) return;
    const result = await reconcilePayments(await getDb(), port);
    if (result.checked) logger().info(result, "payment reconciliation");
  },
});
