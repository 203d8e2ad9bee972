import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { type AuditActor, recordAudit } from "../../audit/audit";
import { propertyOwners } from "../owners.table";
import { applyOwnerSettings, type Owner } from "../service";
import { ownerSettingsInput } from "./settings.inputs";

/**
 * Staff edit of the two settings that decide what renters can buy (docs/decisions.md, "Console: access, part B"): the purchase
 * flow and the coverage ceiling. Written by `applyOwnerSettings`, the partner upsert's own code, so
 * the same rules hold (roster loaded before the flow opens; prospects re-evaluated on a change).
 */
export { ownerSettingsInput };

export type OwnerSettingsInput = z.infer<typeof ownerSettingsInput>;

const audited = (owner: Owner) => ({ purchase_flow_enabled: owner.purchaseFlowEnabled, max_coverage_amount_cents: owner.maxCoverageAmountCents });

/** The owner of this very slug, locked for the rest of `tx`; a merged duplicate is refused (edit its survivor). */
export async function lockedLiveOwner(tx: Tx, slug: string): Promise<Owner> {
  const [owner] = await tx.select().from(propertyOwners).where(eq(propertyOwners.slug, slug)).for("update");
  if (!owner) throw errors.notFound(`No owner ${slug}`);
  if (owner.mergedIntoId !== null) throw errors.conflict(`Owner ${slug} was merged into another owner: change the survivor instead`);
  return owner;
}

export async function updateOwnerSettings(db: Db, actor: AuditActor, input: OwnerSettingsInput): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await lockedLiveOwner(tx, input.slug);
    // Only what differs is written: the same value again changes nothing and is not audited.
    const changes = {
      purchase_flow_enabled: input.purchase_flow_enabled === before.purchaseFlowEnabled ? undefined : input.purchase_flow_enabled,
      max_coverage_amount_cents: input.max_coverage_amount_cents === before.maxCoverageAmountCents ? undefined : input.max_coverage_amount_cents,
    };
    if (changes.purchase_flow_enabled === undefined && changes.max_coverage_amount_cents === undefined) return;
    const after = await applyOwnerSettings(tx, before, changes);
    await recordAudit(tx, actor, {
      action: "owner.settings_changed",
      subject: { type: "owner", id: before.slug },
      ownerId: before.id,
      before: audited(before),
      after: audited(after),
    });
  });
}
