import { desc, eq, inArray } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { applications } from "../enrollment/applications/applications.table";
import { paymentCharges } from "../payments/payments.table";
import { policies } from "../policies/policies.table";
import { billingMethodUpdates } from "./method-updates.table";

/**
 * The stored cards policies are billed with: the one each purchase was charged to (a monthly
 * purchase keeps the card with `storeMethod` and charges it by `methodId`; decisions §11 Billing).
 * Followed from the policy's application to its payment charge, so nothing is copied onto the
 * policy. A card the renter put on the policy since ("Update card", billing_method_updates) takes
 * its place, the newest first. A policy without one (bought before cards were kept, or not through
 * the flow) is absent.
 */
export async function storedMethodsOf(tx: Tx, policyIds: readonly number[]): Promise<Map<number, string>> {
  if (policyIds.length === 0) return new Map();
  const rows = await tx
    .select({ policyId: policies.id, methodId: paymentCharges.methodId })
    .from(policies)
    .innerJoin(applications, eq(applications.id, policies.applicationId))
    .innerJoin(paymentCharges, eq(paymentCharges.id, applications.paymentChargeId))
    .where(inArray(policies.id, [...policyIds]));
  const methods = new Map(rows.filter((row) => row.methodId !== null).map((row) => [row.policyId, row.methodId as string]));
  const updates = await tx
    .selectDistinctOn([billingMethodUpdates.policyId], { policyId: billingMethodUpdates.policyId, methodId: billingMethodUpdates.methodId })
    .from(billingMethodUpdates)
    .where(inArray(billingMethodUpdates.policyId, [...policyIds]))
    .orderBy(billingMethodUpdates.policyId, desc(billingMethodUpdates.id));
  for (const update of updates) methods.set(update.policyId, update.methodId);
  return methods;
}

/** "Update card" (decisions §19): the policy's next monthly charges use this stored method. */
export async function replacePolicyMethod(tx: Tx, policyId: number, methodId: string): Promise<void> {
  await tx.insert(billingMethodUpdates).values({ policyId, methodId });
}

export async function storedMethodOf(tx: Tx, policyId: number): Promise<string | undefined> {
  return (await storedMethodsOf(tx, [policyId])).get(policyId);
}
