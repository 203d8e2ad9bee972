import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../server/db/client";
import { logger } from "../../../server/log";
import { enterOwnerGate } from "../../owners/merge/gate";
import type { PaymentPort } from "../../payments/port";
import { recordOutcome } from "../../payments/recorder";
import { recordCashDeposit } from "../../policies/cash-deposits";
import { issuePolicy } from "../../policies/issue";
import { type ApplicationProduct, applications, CADENCES, type Cadence } from "./applications.table";
import { lockApplication } from "./service";

/** `pay:<application>` (decisions §18), with the option: another option is another amount, so another intent. */
export function payKey(applicationId: number, productType: ApplicationProduct, cadence: Cadence | null): string {
  return `pay:pa_${applicationId}:${productType}:${cadence ?? "once"}`;
}

function choiceOfKey(key: string): { productType: ApplicationProduct; cadence: Cadence | null } | undefined {
  const [, , productType, cadence] = key.split(":");
  if (!productType) return undefined;
  return { productType: productType as ApplicationProduct, cadence: CADENCES.includes(cadence as Cadence) ? (cadence as Cadence) : null };
}

/**
 * The one way a PaymentIntent pays an application (the return, the token's confirmation and the
 * `payment_intent.succeeded` webhook all come here): the intent is retrieved from the processor and
 * recorded; only `succeeded` issues the policy (or records the cash deposit), in one transaction
 * under the application's lock, so whichever comes first issues and the others find it paid. An
 * intent of an application already paid by another intent is logged for a refund, never issued twice.
 */
export async function completeIntentPayment(db: Db, port: PaymentPort, intentId: string): Promise<"paid" | "not_paid" | "not_ours"> {
  const open = await port.retrieveIntent(intentId);
  const row = await recordOutcome(db, port.name, open.outcome);
  const applicationId = row?.subject?.startsWith("application:pa_") ? Number(row.subject.slice("application:pa_".length)) : Number.NaN;
  if (!row || !Number.isSafeInteger(applicationId)) return "not_ours";
  const outcome = open.outcome;
  if (outcome.status !== "succeeded") {
    // A failed or canceled attempt lets the renter choose again; one still deciding keeps the hold.
    if (outcome.status !== "processing" && outcome.status !== "requires_action") {
      await db
        .update(applications)
        .set({ paymentKey: null, paymentKeyAmountCents: null, updatedAt: new Date() })
        .where(and(eq(applications.id, applicationId), eq(applications.paymentKey, row.idempotencyKey), isNull(applications.paidAt)));
    }
    return "not_paid";
  }
  const choice = choiceOfKey(row.idempotencyKey);
  const [application] = await db.select({ ownerId: applications.ownerId }).from(applications).where(eq(applications.id, applicationId));
  if (!application || !choice) return "not_ours";
  const paidAt = new Date();
  await db.transaction(async (tx) => {
    await enterOwnerGate(tx, application.ownerId);
    const current = await lockApplication(tx, applicationId);
    if (current.paidAt) {
      if (current.paymentChargeId !== row.id)
        logger().error({ applicationId, kept: current.paymentChargeId, extra: row.id, intentId }, "enrollment paid twice: refund the extra charge");
      return;
    }
    await tx
      .update(applications)
      .set({
        productType: choice.productType,
        cadence: choice.cadence,
        paymentChargeId: row.id,
        paymentAmountCents: outcome.amountCents,
        paymentLast4: outcome.method?.last4 ?? null,
        paidAt,
        paymentKey: null,
        paymentKeyAmountCents: null,
        updatedAt: new Date(),
      })
      .where(eq(applications.id, current.id));
    if (choice.productType === "cash_deposit") await recordCashDeposit(tx, current);
    else await issuePolicy(tx, current, { paidAt });
  });
  return "paid";
}
