import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { delinquencies } from "../billing/tables";
import { propertyOwners } from "../owners/tables";
import { sources } from "../prospects/sources.table";
import { prospects } from "../prospects/tables";
import { properties } from "../roster/tables";
import { emitEvent } from "../webhooks/emit";
import { insurancePolicyPayload } from "./payload";
import type { Policy } from "./policies.table";

export type PolicyEvent = "policy.created" | "policy.updated" | "policy.canceled" | "policy.expired" | "policy.documents_updated";

/**
 * What a policy's events read beside the policy: owner, building, the client of its prospect's
 * source, and whether a delinquency is open (renewal eligibility; decisions §11 Billing).
 */
export async function contextOf(tx: Tx, policy: Policy) {
  const [row] = await tx
    .select({
      slug: propertyOwners.slug,
      purchaseFlowEnabled: propertyOwners.purchaseFlowEnabled,
      buildingActive: properties.active,
      openDelinquency: sql<boolean>`exists (${tx
        .select({ one: sql`1` })
        .from(delinquencies)
        .where(and(eq(delinquencies.policyId, policy.id), eq(delinquencies.status, "active")))})`,
    })
    .from(propertyOwners)
    .innerJoin(properties, eq(properties.id, policy.propertyId))
    .where(eq(propertyOwners.id, policy.ownerId));
  const [origin] = policy.prospectId
    ? await tx
        .select({ clientId: sources.clientId })
        .from(prospects)
        .innerJoin(sources, eq(sources.id, prospects.sourceId))
        .where(eq(prospects.id, policy.prospectId))
    : [];
  return { ...row, clientId: origin?.clientId };
}

/**
 * Emits a policy event in the caller's transaction (spec Event catalog; decisions §11). A policy is
 * the record of its prospect's source's client, like the prospect (partners sharing an owner are
 * isolated), and of its building (providers covering single buildings). `policyUrl` only on
 * `policy.documents_updated`.
 */
export async function emitPolicyEvent(tx: Tx, event: PolicyEvent, policy: Policy, options: { policyUrl?: string } = {}): Promise<void> {
  const context = await contextOf(tx, policy);
  const data = insurancePolicyPayload(
    policy,
    { buildingActive: context.buildingActive, purchaseFlowEnabled: context.purchaseFlowEnabled, openDelinquency: context.openDelinquency },
    event === "policy.documents_updated" ? options : {},
  );
  await emitEvent(tx, { ownerId: policy.ownerId, ownerSlug: context.slug, event, data, clientId: context.clientId, building: { id: policy.propertyId } });
}
