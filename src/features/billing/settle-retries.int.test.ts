import { and, asc, eq, like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { paymentCharges } from "../payments/payments.table";
import type { ChargeRequest, ChargeResult, PaymentProcessor } from "../payments/processor";
import { SimulatedProcessor } from "../payments/simulated-processor";
import type { Policy } from "../policies/policies.table";
import { billingCharges, delinquencies } from "./billing.table";
import { billingPartnersOfThisFile, monthlyPolicy, monthOf } from "./billing-test-helpers";
import { BILLING_MESSAGES } from "./messages";
import { chargeKey, policySubject, runBilling } from "./run";
import { settlePolicy } from "./settle";

/**
 * A settlement retried after its transaction failed charges once (docs/decisions.md, Billing:
 * settlement retries never charge twice); a retry after a decline is a new attempt with a new key.
 */

const partner = billingPartnersOfThisFile();
const simulated = new SimulatedProcessor();
const cli = { cli: "tester" };

/** The simulated processor, whose answer is lost on the way back after it charged (a timeout, a reset). */
class LostAnswerProcessor implements PaymentProcessor {
  readonly name = "simulated";
  readonly storeMethod = simulated.storeMethod.bind(simulated);
  async charge(request: ChargeRequest): Promise<ChargeResult> {
    await simulated.charge(request);
    throw new Error("connection reset after the charge");
  }
}

/** A policy whose month 1 declined: one open delinquency of a month's premium. */
async function delinquentPolicy(sourceProspectId: string): Promise<Policy> {
  const policy = await monthlyPolicy(await partner(), sourceProspectId);
  await simulated.failNext(policySubject(policy.policyNumber));
  await runBilling(await getDb(), monthOf(policy, 1), simulated);
  return policy;
}

const delinquencyOf = async (policy: Policy) => (await (await getDb()).select().from(delinquencies).where(eq(delinquencies.policyId, policy.id)))[0];

/** The processor's settlement charges of the policy (not its months), oldest first. */
const settlementsCharged = async (policy: Policy) =>
  (await getDb())
    .select()
    .from(paymentCharges)
    .where(and(eq(paymentCharges.subject, policySubject(policy.policyNumber)), like(paymentCharges.description, "Outstanding premium%")))
    .orderBy(asc(paymentCharges.createdAt), asc(paymentCharges.id));

const settlementRows = async (policy: Policy) =>
  (await getDb())
    .select()
    .from(billingCharges)
    .where(and(eq(billingCharges.policyId, policy.id), eq(billingCharges.kind, "settlement")))
    .orderBy(asc(billingCharges.id));

describe("billing settle retries (docs/decisions.md, Billing: settlement retries never charge twice)", () => {
  it("the processor charged but its answer was lost: the row stays pending, the next settle replays its key → one charge", async () => {
    const policy = await delinquentPolicy("settle-lost-answer");
    const open = await delinquencyOf(policy);
    const db = await getDb();
    await expect(settlePolicy(db, cli, policy.id, new LostAnswerProcessor())).rejects.toThrow("connection reset");
    expect(await delinquencyOf(policy)).toMatchObject({ status: "active", amountCents: policy.premiumCents });
    const [pending] = await settlementRows(policy);
    expect(await settlementRows(policy)).toMatchObject([{ status: "pending", amountCents: policy.premiumCents, delinquencyId: open.id }]);

    const settled = await settlePolicy(db, cli, policy.id, simulated);
    const charged = await settlementsCharged(policy);
    expect(charged).toMatchObject([{ status: "succeeded", amountCents: policy.premiumCents, idempotencyKey: chargeKey(pending.id) }]);
    expect(settled).toEqual({
      policy_number: policy.policyNumber,
      delinquency_id: `delinquency_${open.id}`,
      settled_cents: policy.premiumCents,
      charge_id: charged[0].id,
    });
    expect(await delinquencyOf(policy)).toMatchObject({ status: "resolved", amountCents: 0, settledCents: policy.premiumCents });
    expect(await settlementRows(policy)).toMatchObject([{ id: pending.id, status: "succeeded", processorChargeId: charged[0].id, delinquencyId: open.id }]);
  });

  it("the processor answered paid but the commit failed: the next settle replays the key → one charge", async () => {
    const policy = await delinquentPolicy("settle-commit-fails");
    const open = await delinquencyOf(policy);
    const db = await getDb();
    // Real PostgreSQL refuses this policy's settlement at COMMIT (a deferred trigger on its audit row),
    // after the processor charged and the success, the resolution and the audit row were written.
    await db.execute(sql`CREATE OR REPLACE FUNCTION test_refuse_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'commit refused by the test'; END $$`);
    await db.execute(
      sql.raw(`CREATE CONSTRAINT TRIGGER test_refuse_settle_commit AFTER INSERT ON audit_log DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN (NEW.action = 'billing.settle' AND NEW.subject_id = '${policy.id}') EXECUTE FUNCTION test_refuse_commit()`),
    );
    try {
      await expect(settlePolicy(db, cli, policy.id, simulated)).rejects.toThrow("commit refused by the test");
    } finally {
      await db.execute(sql`DROP TRIGGER test_refuse_settle_commit ON audit_log`);
    }
    expect(await delinquencyOf(policy)).toMatchObject({ status: "active", amountCents: policy.premiumCents });
    const first = await settlementsCharged(policy);
    expect(first).toMatchObject([{ status: "succeeded", amountCents: policy.premiumCents }]);

    const settled = await settlePolicy(db, cli, policy.id, simulated);
    expect(settled.charge_id).toBe(first[0].id);
    expect(await settlementsCharged(policy)).toEqual(first);
    expect(await delinquencyOf(policy)).toMatchObject({ status: "resolved", amountCents: 0, settledCents: policy.premiumCents });
    expect(await settlementRows(policy)).toMatchObject([{ status: "succeeded", processorChargeId: first[0].id, delinquencyId: open.id }]);
  });

  it("a declined settle is kept as declined; the next settle is a new attempt with a new key and pays", async () => {
    const policy = await delinquentPolicy("settle-declined-retry");
    const open = await delinquencyOf(policy);
    const db = await getDb();
    await simulated.failNext(policySubject(policy.policyNumber));
    await expect(settlePolicy(db, cli, policy.id, simulated)).rejects.toMatchObject({ kind: "conflict", message: BILLING_MESSAGES.settleDeclined });
    expect(await delinquencyOf(policy)).toMatchObject({ status: "active", amountCents: policy.premiumCents });
    const [declined] = await settlementRows(policy);
    expect(declined).toMatchObject({ status: "declined", declineCode: "card_declined", delinquencyId: open.id, completedAt: expect.any(Date) });

    const settled = await settlePolicy(db, cli, policy.id, simulated);
    const charged = await settlementsCharged(policy);
    expect(charged.map((row) => row.status)).toEqual(["declined", "succeeded"]);
    expect(charged[0].idempotencyKey).not.toBe(charged[1].idempotencyKey);
    expect(settled.charge_id).toBe(charged[1].id);
    const rows = await settlementRows(policy);
    expect(rows).toMatchObject([
      { id: declined.id, status: "declined", processorChargeId: charged[0].id },
      { status: "succeeded", processorChargeId: charged[1].id, delinquencyId: open.id },
    ]);
    expect(charged[1].idempotencyKey).toBe(chargeKey(rows[1].id));
    expect(await delinquencyOf(policy)).toMatchObject({ status: "resolved", amountCents: 0 });
  });

  it("a month declined after an unanswered attempt: that attempt is replayed under its own key, then only the rest is charged", async () => {
    const policy = await delinquentPolicy("settle-grown");
    const open = await delinquencyOf(policy);
    const db = await getDb();
    await expect(settlePolicy(db, cli, policy.id, new LostAnswerProcessor())).rejects.toThrow("connection reset");
    await simulated.failNext(policySubject(policy.policyNumber));
    await runBilling(db, monthOf(policy, 2), simulated);
    expect(await delinquencyOf(policy)).toMatchObject({ id: open.id, status: "active", amountCents: 2 * policy.premiumCents });

    const settled = await settlePolicy(db, cli, policy.id, simulated);
    const charged = await settlementsCharged(policy);
    // The lost attempt's one month, charged once, and the month declined since: twice the premium in all.
    expect(charged).toMatchObject([
      { status: "succeeded", amountCents: policy.premiumCents },
      { status: "succeeded", amountCents: policy.premiumCents },
    ]);
    expect(settled).toMatchObject({ settled_cents: 2 * policy.premiumCents, charge_id: charged[1].id });
    expect(await delinquencyOf(policy)).toMatchObject({ status: "resolved", amountCents: 0, settledCents: 2 * policy.premiumCents });
    expect(await settlementRows(policy)).toMatchObject([
      { status: "succeeded", amountCents: policy.premiumCents, processorChargeId: charged[0].id, delinquencyId: open.id },
      { status: "succeeded", amountCents: policy.premiumCents, processorChargeId: charged[1].id, delinquencyId: open.id },
    ]);
  });

  it("two settlements at once charge once: the second waits on the delinquency, then finds nothing open", async () => {
    const policy = await delinquentPolicy("settle-race");
    const db = await getDb();
    const results = await Promise.all([settlePolicy(db, cli, policy.id, simulated), settlePolicy(db, cli, policy.id, new SimulatedProcessor())]);
    expect(results.filter((result) => result.charge_id)).toHaveLength(1);
    expect(results.filter((result) => !result.charge_id)).toEqual([{ policy_number: policy.policyNumber }]);
    expect(await settlementsCharged(policy)).toMatchObject([{ status: "succeeded", amountCents: policy.premiumCents }]);
    expect(await settlementRows(policy)).toMatchObject([{ status: "succeeded" }]);
    expect(await delinquencyOf(policy)).toMatchObject({ status: "resolved" });
  });
});
