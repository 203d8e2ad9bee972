import { eq, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { idArray } from "../../server/db/id-array";
import { errors } from "../../server/errors";
import { delinquencies } from "../billing/billing.table";
import { propertyOwners } from "../owners/owners.table";
import { prospects } from "../prospects/prospects.table";
import { sources } from "../prospects/sources.table";
import { properties } from "../roster/roster.table";
import { type EmitInput, emitEvents } from "../webhooks/emit";
import { insurancePolicyPayload, type PolicyContext } from "./payload";
import { type Policy, policies } from "./policies.table";

export type PolicyEvent = "policy.created" | "policy.updated" | "policy.canceled" | "policy.expired" | "policy.documents_updated";

/** One policy event to emit: the event, the policy as it now is, and its archive link (documents only). */
export type PolicyEventInput = { event: PolicyEvent; policy: Policy; policyUrl?: string };

type EventContext = PolicyContext & { slug: string; clientId: string | undefined };

/**
 * What policy events read beside each policy, in one query: owner, building and open delinquency
 * (renewal eligibility, docs/policies.md) and the client of its prospect's source.
 */
async function contextsOf(tx: Tx, ids: readonly number[]): Promise<Map<number, EventContext>> {
  const rows = await tx
    .select({
      policyId: policies.id,
      slug: propertyOwners.slug,
      purchaseFlowEnabled: propertyOwners.purchaseFlowEnabled,
      maxCoverageAmountCents: propertyOwners.maxCoverageAmountCents,
      buildingActive: properties.active,
      guaranteeEnabled: properties.guaranteeEnabled,
      openDelinquency: sql<boolean>`exists (select 1 from ${delinquencies} where ${delinquencies.policyId} = ${policies.id} and ${delinquencies.status} = 'active')`,
      clientId: sources.clientId,
    })
    .from(policies)
    .innerJoin(propertyOwners, eq(propertyOwners.id, policies.ownerId))
    .innerJoin(properties, eq(properties.id, policies.propertyId))
    .leftJoin(prospects, eq(prospects.id, policies.prospectId))
    .leftJoin(sources, eq(sources.id, prospects.sourceId))
    .where(sql`${policies.id} = any(${idArray([...new Set(ids)])})`);
  return new Map(rows.map(({ policyId, clientId, ...context }) => [policyId, { ...context, clientId: clientId ?? undefined }]));
}

/** What one policy's events read beside it (delinquency events reach the same endpoints as the policy's). */
export async function contextOf(tx: Tx, policy: Policy): Promise<EventContext> {
  const context = (await contextsOf(tx, [policy.id])).get(policy.id);
  if (!context) throw errors.internal(new Error(`Policy ${policy.id} has no owner or building`));
  return context;
}

/**
 * Emits policy events in the caller's transaction, in one statement however many (spec Event
 * catalog; decisions §11). A policy is the record of its prospect's source's client, like the
 * prospect (partners sharing an owner are isolated), and of its building (providers covering
 * single buildings). `policy_url` only on `policy.documents_updated`.
 */
export async function emitPolicyEvents(tx: Tx, inputs: readonly PolicyEventInput[]): Promise<void> {
  if (inputs.length === 0) return;
  const contexts = await contextsOf(
    tx,
    inputs.map((input) => input.policy.id),
  );
  const events: EmitInput[] = inputs.map(({ event, policy, policyUrl }) => {
    const context = contexts.get(policy.id);
    if (!context) throw errors.internal(new Error(`Policy ${policy.id} has no owner or building`));
    const { slug, clientId, ...facts } = context;
    const data = insurancePolicyPayload(policy, facts, event === "policy.documents_updated" ? { policyUrl } : {});
    return { ownerId: policy.ownerId, ownerSlug: slug, event, data, clientId, building: { id: policy.propertyId } };
  });
  await emitEvents(tx, events);
}

/** One policy event (`emitPolicyEvents` of one). */
export async function emitPolicyEvent(tx: Tx, event: PolicyEvent, policy: Policy, options: { policyUrl?: string } = {}): Promise<void> {
  await emitPolicyEvents(tx, [{ event, policy, policyUrl: options.policyUrl }]);
}
