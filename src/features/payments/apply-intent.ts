import type { Db } from "../../server/db/client";
import { completeSettlementIntent, payNowTarget } from "../billing/settle-intent";
import { completeIntentPayment } from "../enrollment/applications/intent-payment";
import type { PaymentCharge } from "./payments.table";
import type { PaymentPort } from "./port";
import { recordOutcome } from "./recorder";

/**
 * What the processor says of a recorded intent now, applied through the once-only path of what it
 * pays (decisions §18): an application's purchase (`completeIntentPayment`), a delinquency paid
 * on-session (`completeSettlementIntent`), else the outcome is only written on its row (a monthly
 * charge: billing reads it). Stripe's webhooks and the reconciliation job both come here. Answers
 * whether the intent is decided now (paid, or found paid before).
 */
export async function applyRecordedIntent(db: Db, port: PaymentPort, row: PaymentCharge): Promise<{ decided: boolean }> {
  const intentId = row.intentId as string;
  if (row.subject?.startsWith("application:")) return { decided: (await completeIntentPayment(db, port, intentId)) === "paid" };
  if (payNowTarget(row.idempotencyKey)) {
    const result = await completeSettlementIntent(db, port, intentId);
    return { decided: result === "settled" || result === "already_settled" || result === "paid_twice" };
  }
  const kept = await recordOutcome(db, port.name, (await port.retrieveIntent(intentId)).outcome);
  return { decided: kept !== undefined && !["pending", "requires_action", "processing"].includes(kept.status) };
}
