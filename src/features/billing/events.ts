import type { Tx } from "../../server/db/client";
import { contextOf } from "../policies/events";
import type { Policy } from "../policies/policies.table";
import { emitEvent } from "../webhooks/emit";
import type { Delinquency } from "./billing.table";
import { delinquencyData } from "./payload";

export type DelinquencyEvent = "delinquency.created" | "delinquency.resolved";

/**
 * Emits a delinquency event in the caller's transaction (spec Event catalog). A delinquency is the
 * record of its policy: it reaches the same endpoints as the policy's events (its prospect's
 * source's client; providers covering its building).
 */
export async function emitDelinquencyEvent(tx: Tx, event: DelinquencyEvent, delinquency: Delinquency, policy: Policy): Promise<void> {
  const context = await contextOf(tx, policy);
  await emitEvent(tx, {
    ownerId: policy.ownerId,
    ownerSlug: context.slug,
    event,
    data: delinquencyData(delinquency, policy),
    clientId: context.clientId,
    building: { id: policy.propertyId },
  });
}
