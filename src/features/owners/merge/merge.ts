import { eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../server/db/client";
import { type AuditActor, recordAudit } from "../../audit/audit";
import { requestProspectReevaluation } from "../../prospects/prospect__reevaluate";
import { lockOwnerRoster } from "../../roster/lock";
import { forgetSigningSecrets, ROTATION_WINDOW_MS } from "../../webhooks/secrets";
import { propertyOwners } from "../owners.table";
import type { Owner } from "../service";
import { closeGatesForMerge } from "./gate";
import { type MergeMoves, ownerMerges } from "./merge.table";
import { mergeOwnersOf, planOwners, renamedKey } from "./plan";

export type MergeResult = { id: number; from: string; into: string; moved: MergeMoves; merged_at: string };

const actorLabel = (actor: AuditActor) => ("user" in actor ? actor.user.email : `cli:${actor.cli}`);

/**
 * decisions §12 Owners: merges a duplicate owner into a survivor in one transaction. Everything of
 * the duplicate moves (ids kept, so every link between records holds); nothing is deleted; keys the
 * survivor already holds are resolved as the plan says; the duplicate's slug and external_org_id keep
 * answering for the survivor (`property_owners.merged_into_id`), its clients keep their access, its
 * signing secret is signed with beside the survivor's for 24 h, and the merge is recorded and audited.
 */
export async function mergeOwners(db: Db, actor: AuditActor, input: { from: string; into: string }, now = new Date()): Promise<MergeResult> {
  return db.transaction(async (tx) => {
    const named = await mergeOwnersOf(tx, input.from, input.into);
    // The locks of the write paths, in their order: the merge gate first, then the roster lock.
    await closeGatesForMerge(tx, [named.from.id, named.into.id]);
    for (const id of [named.from.id, named.into.id].sort((a, b) => a - b)) await lockOwnerRoster(tx, id);
    // Read again under the locks: another merge may have finished while this one waited.
    const { from, into } = await mergeOwnersOf(tx, input.from, input.into);
    const plan = await planOwners(tx, from, into);
    const mergedAt = now;
    const [record] = await tx
      .insert(ownerMerges)
      .values({
        fromOwnerId: from.id,
        intoOwnerId: into.id,
        fromSlug: from.slug,
        intoSlug: into.slug,
        moved: plan.moves,
        conflicts: plan.conflicts,
        actor: actorLabel(actor),
        mergedAt,
        fromSigningSecretEncrypted: from.signingSecretEncrypted,
        secretValidUntil: new Date(mergedAt.getTime() + ROTATION_WINDOW_MS),
      })
      .returning();
    await resolveConflicts(tx, from, into);
    await moveAccess(tx, from, into, record.id);
    await moveRecords(tx, from.id, into.id);
    await tx
      .update(propertyOwners)
      .set({ mergedIntoId: into.id, updatedAt: sql`now()` })
      .where(sql`${propertyOwners.id} = ${from.id} or ${propertyOwners.mergedIntoId} = ${from.id}`);
    // The moved prospects now follow the survivor's purchase flow, ceiling and rules.
    await requestProspectReevaluation(tx, { ownerId: into.id });
    const result: MergeResult = { id: record.id, from: from.slug, into: into.slug, moved: plan.moves, merged_at: mergedAt.toISOString() };
    await recordAudit(tx, actor, {
      action: "owners.merge",
      subject: { type: "owner", id: from.slug },
      ownerId: into.id,
      before: { from: from.slug, into: into.slug, from_external_org_id: from.externalOrgId },
      after: { ...result, conflicts: plan.conflicts },
    });
    forgetSigningSecrets([from.id, into.id]);
    return result;
  });
}

/** The resolutions the plan announces (plan.ts `findConflicts`), applied while the records are still the duplicate's. */
async function resolveConflicts(tx: Tx, from: Owner, into: Owner): Promise<void> {
  const f = from.id;
  const i = into.id;
  const suffix = renamedKey("", from.slug);
  await tx.execute(sql`update properties d set external_system_id = d.external_system_id || ${suffix}, updated_at = now()
    where d.owner_id = ${f} and exists (select 1 from properties s where s.owner_id = ${i} and s.external_system_id = d.external_system_id)`);
  await tx.execute(sql`update bank_accounts d set external_system_id = d.external_system_id || ${suffix}, updated_at = now()
    where d.owner_id = ${f} and exists (select 1 from bank_accounts s where s.owner_id = ${i} and s.external_system_id = d.external_system_id)`);
  // Two defaults: the survivor's stays; the duplicate's buildings that followed theirs are pinned to it.
  await tx.execute(sql`update properties set bank_account_id = (select id from bank_accounts where owner_id = ${f} and is_default)
    where owner_id = ${f} and bank_account_id is null and exists (select 1 from bank_accounts where owner_id = ${i} and is_default)`);
  await tx.execute(sql`update bank_accounts set is_default = false, updated_at = now()
    where owner_id = ${f} and is_default and exists (select 1 from bank_accounts where owner_id = ${i} and is_default)`);
  await tx.execute(sql`with renamed as (
      update prospects d set source_prospect_id = d.source_prospect_id || ${suffix}, updated_at = now()
      where d.owner_id = ${f} and exists (select 1 from prospects s where s.owner_id = ${i} and s.source = d.source and s.source_prospect_id = d.source_prospect_id)
      returning d.id, d.source_prospect_id)
    update policies p set source_prospect_id = renamed.source_prospect_id, updated_at = now() from renamed where p.prospect_id = renamed.id`);
  await tx.execute(sql`update move_outs d set external_id = d.external_id || ${suffix}
    where d.owner_id = ${f} and exists (select 1 from move_outs s where s.owner_id = ${i} and s.external_id = d.external_id)`);
}

/**
 * decisions §12: clients with access to the duplicate keep access to what moved, under both slugs.
 * Owner grants are copied to the survivor (the duplicate's are kept). A managed survivor reaches
 * buildings by grant: the duplicate's clients get the moved buildings, and its building grants are
 * copied. Provider subscriptions that covered the duplicate cover the moved buildings.
 */
async function moveAccess(tx: Tx, from: Owner, into: Owner, mergeId: number): Promise<void> {
  const f = from.id;
  const i = into.id;
  await tx.execute(sql`insert into client_owner_grants (client_id, owner_id)
    select client_id, ${i} from client_owner_grants where owner_id = ${f} on conflict do nothing`);
  await tx.execute(sql`insert into owner_building_grants (owner_id, client_id, pms_type, pms_property_id)
    select ${i}, client_id, pms_type, pms_property_id from owner_building_grants where owner_id = ${f} on conflict do nothing`);
  if (into.managed) {
    await tx.execute(sql`insert into owner_merge_building_access (merge_id, client_id, property_id)
      select ${mergeId}, g.client_id, p.id from client_owner_grants g join properties p on p.owner_id = ${f} where g.owner_id = ${f}
      on conflict do nothing`);
  }
  await tx.execute(sql`insert into provider_buildings (provider_id, property_id)
    select po.provider_id, p.id from provider_owners po join properties p on p.owner_id = ${f} where po.owner_id = ${f}
    on conflict do nothing`);
}

/** Every record of the duplicate, moved by owner id (record ids never change). */
async function moveRecords(tx: Tx, f: number, i: number): Promise<void> {
  for (const table of [
    "bank_accounts",
    "properties",
    "prospects",
    "applications",
    "policies",
    "cash_deposits",
    "residents",
    "move_outs",
    "webhook_endpoints",
    "webhook_events",
    // Denormalized onto deliveries for the console's search by owner.
    "webhook_deliveries",
  ]) {
    await tx.execute(sql`update ${sql.identifier(table)} set owner_id = ${i} where owner_id = ${f}`);
  }
  await tx.execute(sql`update underwriting_rules set owner_id = ${i}
    where owner_id = ${f} and not exists (select 1 from underwriting_rules where owner_id = ${i})`);
}

/** The merge records, newest first, for `owner list` and the console. */
export async function listMerges(tx: Tx, limit = 200) {
  return tx.select().from(ownerMerges).orderBy(sql`${ownerMerges.id} desc`).limit(limit);
}

export async function mergeOf(tx: Tx, id: number) {
  const [row] = await tx.select().from(ownerMerges).where(eq(ownerMerges.id, id));
  return row;
}
