import { count, eq } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { errors } from "../../server/errors";
import { logger } from "../../server/log";
import { type RenterActor, recordAudit, type SystemActor } from "../audit/audit";
import { replacePolicyMethod, storedMethodOf } from "../billing/method";
import { billingMethodUpdates } from "../billing/method-updates.table";
import { policies } from "../policies/policies.table";
import type { CardSetup, CardSetupPort } from "./card-setup-port";
import { PAYMENT_MESSAGES as M } from "./messages";
import { paymentMethods } from "./payments.table";
import { recordMethod } from "./recorder";

/**
 * A new card for a monthly policy without a payment (decisions §18 `setup_intent.succeeded`, §19
 * "Update card"; docs/decisions.md, "A new card through Stripe"). Card data never reaches us: the
 * processor's SetupIntent is created here on the renter's Customer (the one the policy's card is
 * kept on), the browser confirms it with Stripe.js, and Stripe's `setup_intent.succeeded` (or the
 * browser's return) makes the saved card the policy's billing method, once.
 */

/**
 * Opens the setup of a new card for a running monthly policy. Its `Idempotency-Key` is
 * `setup:<policy>:<n>`, n the policy's next card: two tabs get one SetupIntent, and a new card after
 * this one gets a new SetupIntent. Answers what Stripe.js needs (`clientSecret`).
 */
export async function startCardSetup(db: Db, port: CardSetupPort | undefined, policyId: number): Promise<CardSetup> {
  if (!port) throw errors.invalid(M.setupNotAvailable);
  const [policy] = await db.select().from(policies).where(eq(policies.id, policyId));
  if (!policy) throw errors.notFound(M.setupPolicyNotFound);
  if (policy.cadence !== "monthly") throw errors.conflict(M.setupNotMonthly);
  if (policy.status === "expired" || policy.status === "canceled") throw errors.conflict(M.setupPolicyEnded);
  const customerId = await customerOfPolicy(db, policy.id);
  if (!customerId) throw errors.conflict(M.setupNoCustomer);
  const [{ cards }] = await db.select({ cards: count() }).from(billingMethodUpdates).where(eq(billingMethodUpdates.policyId, policy.id));
  const created = await port.createSetup({
    idempotencyKey: `setup:${policy.policyNumber}:${cards + 1}`,
    customerId,
    metadata: { policy_id: String(policy.id), policy_number: policy.policyNumber, subject: `policy:${policy.policyNumber}` },
  });
  // A replayed key answers the SetupIntent as it was created, not as it is (declined, in 3-D Secure, saved): ask again.
  return port.retrieveSetup(created.setupIntentId);
}

export type CardSetupResult = { outcome: "updated"; methodId: string } | { outcome: "unchanged" | "not_succeeded" | "not_ours" };

/**
 * Applies a SetupIntent as Stripe has it now (retrieved again, whatever the event or the browser
 * said): a succeeded one for a policy of ours, on the Customer the policy's card is kept on, becomes
 * the policy's billing method, audited once; the same card twice changes nothing.
 */
export async function completeCardSetup(
  db: Db,
  port: CardSetupPort,
  setupIntentId: string,
  options: { actor?: RenterActor | SystemActor; policyId?: number } = {},
): Promise<CardSetupResult> {
  const setup = await port.retrieveSetup(setupIntentId);
  const policyId = Number(setup.metadata.policy_id);
  // The renter's return names its policy: a SetupIntent of another policy changes nothing there.
  if (!Number.isSafeInteger(policyId) || policyId <= 0 || (options.policyId !== undefined && options.policyId !== policyId)) return { outcome: "not_ours" };
  if (setup.status !== "succeeded" || !setup.method) return { outcome: "not_succeeded" };
  const method = setup.method;
  return db.transaction(async (tx) => {
    const [policy] = await tx.select().from(policies).where(eq(policies.id, policyId)).for("update");
    if (!policy) return { outcome: "not_ours" as const };
    const customerId = await customerOfPolicy(tx, policy.id);
    if (!customerId || customerId !== setup.customerId) {
      logger().warn({ setupIntentId, policyId }, "setup intent's customer is not the policy's: ignored");
      return { outcome: "not_ours" as const };
    }
    const methodId = await recordMethod(tx, port.name, { ...method, customerId });
    if ((await storedMethodOf(tx, policy.id)) === methodId) return { outcome: "unchanged" as const };
    await replacePolicyMethod(tx, policy.id, methodId);
    await recordAudit(tx, options.actor ?? { system: `${port.name}_webhook` }, {
      action: "billing.card_updated",
      subject: { type: "policy", id: policy.id },
      ownerId: policy.ownerId,
      after: { method_id: methodId, brand: method.brand, last4: method.last4, setup_intent: setupIntentId },
    });
    return { outcome: "updated" as const, methodId };
  });
}

/** The processor's Customer the policy's billing card is kept on (decisions §18: one per renter). */
async function customerOfPolicy(db: Parameters<typeof storedMethodOf>[0], policyId: number): Promise<string | null> {
  const methodId = await storedMethodOf(db, policyId);
  if (!methodId) return null;
  const [method] = await db.select({ customerId: paymentMethods.customerId }).from(paymentMethods).where(eq(paymentMethods.id, methodId));
  return method?.customerId ?? null;
}
