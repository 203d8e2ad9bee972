import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { encryptSecret, randomToken } from "../../server/secrets";
import { type AuditActor, recordAudit } from "../audit/audit";
import { grantOwner, isOwnerGranted } from "../auth/clients";
import { requestProspectReevaluation } from "../prospects/prospect__reevaluate";
import { isRosterLoaded } from "../roster/readiness";
import type { UpsertOwnerInput } from "./api/upsert-owner.types";
import { OWNER_MESSAGES } from "./messages";
import { propertyOwners } from "./owners.table";

export type Owner = typeof propertyOwners.$inferSelect;

export function ownerView(owner: Owner) {
  return {
    external_org_id: owner.externalOrgId,
    owner_slug: owner.slug,
    name: owner.name,
    purchase_flow_enabled: owner.purchaseFlowEnabled,
    max_coverage_amount_cents: owner.maxCoverageAmountCents,
    embedded_frame_ancestors: owner.embeddedFrameAncestors,
    guarantor_coverage_capable: owner.guarantorCoverageCapable,
  };
}

/**
 * spec Owner creation: upsert on `external_org_id`. Returns whether the owner was created.
 * The caller is granted the owner it creates.
 */
export async function upsertOwner(tx: Tx, clientId: string, input: UpsertOwnerInput): Promise<{ owner: Owner; created: boolean }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [existing] = await tx.select().from(propertyOwners).where(eq(propertyOwners.externalOrgId, input.external_org_id)).for("update");
    if (existing) return { owner: await updateOwner(tx, clientId, existing, input), created: false };
    const created = await createOwner(tx, clientId, input);
    if (created) return { owner: created, created: true };
    // Lost a race with a concurrent create of the same external_org_id: read it and update.
  }
  throw errors.unavailable(`Could not upsert owner ${input.external_org_id} under concurrent writes; retry`);
}

async function createOwner(tx: Tx, clientId: string, input: UpsertOwnerInput): Promise<Owner | undefined> {
  if (!input.name) throw errors.invalidFields(OWNER_MESSAGES.invalid, { name: ["is required"] });
  const slug = await availableSlug(tx, input.name);
  const [owner] = await tx
    .insert(propertyOwners)
    .values({
      slug,
      externalOrgId: input.external_org_id,
      name: input.name,
      // spec Owner creation: creation returns purchase_flow_enabled false, whatever was sent.
      purchaseFlowEnabled: false,
      maxCoverageAmountCents: input.max_coverage_amount_cents ?? null,
      embeddedFrameAncestors: input.embedded_frame_ancestors ?? [],
      guarantorCoverageCapable: input.guarantor_coverage_capable ?? false,
      signingSecretEncrypted: encryptSecret(newSigningSecret()),
      createdByClientId: clientId,
    })
    .onConflictDoNothing() // a concurrent create of the same id or slug: the caller retries
    .returning();
  if (owner) await grantOwner(tx, clientId, owner.id);
  return owner;
}

async function updateOwner(tx: Tx, clientId: string, owner: Owner, input: UpsertOwnerInput): Promise<Owner> {
  // spec Owner creation: 409 when the identifier belongs to an owner the service manages directly.
  // decisions §12 Owners: the external_org_id of an owner merged into another answers the same 409.
  if (owner.managed || owner.mergedIntoId !== null) throw errors.conflict(OWNER_MESSAGES.managed);
  if (!(await isOwnerGranted(tx, clientId, owner.id))) throw errors.conflict(OWNER_MESSAGES.takenByAnotherPartner);
  return applyOwnerSettings(tx, owner, input);
}

/**
 * Writes an owner's settings (the partner's upsert and the console's owner page), with the rules
 * both share: the purchase flow opens only once the roster is loaded, and a change of the purchase
 * flow or the coverage ceiling re-evaluates the owner's prospects in the same transaction.
 * `owner` must be the row read `for update` in `tx`.
 */
export async function applyOwnerSettings(tx: Tx, owner: Owner, input: Omit<UpsertOwnerInput, "external_org_id">): Promise<Owner> {
  const changes: Partial<typeof propertyOwners.$inferInsert> = {};
  // spec Common rules 3: only present fields are written; an explicit null clears an optional field.
  if (input.name !== undefined) changes.name = input.name;
  if (input.purchase_flow_enabled !== undefined) {
    // spec Property owner activation: only after the roster is loaded.
    if (input.purchase_flow_enabled && !owner.purchaseFlowEnabled && !(await isRosterLoaded(tx, owner.id))) {
      throw errors.invalidFields(OWNER_MESSAGES.invalid, { purchase_flow_enabled: [OWNER_MESSAGES.rosterNotLoaded] });
    }
    changes.purchaseFlowEnabled = input.purchase_flow_enabled ?? false;
  }
  if (input.max_coverage_amount_cents !== undefined) changes.maxCoverageAmountCents = input.max_coverage_amount_cents;
  if (input.embedded_frame_ancestors !== undefined) changes.embeddedFrameAncestors = input.embedded_frame_ancestors ?? [];
  if (input.guarantor_coverage_capable !== undefined) changes.guarantorCoverageCapable = input.guarantor_coverage_capable ?? false;
  if (Object.keys(changes).length === 0) return owner;
  const [updated] = await tx
    .update(propertyOwners)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(propertyOwners.id, owner.id))
    .returning();
  // spec Property owner activation: the owner's prospects follow its purchase flow and ceiling.
  if (updated.purchaseFlowEnabled !== owner.purchaseFlowEnabled || updated.maxCoverageAmountCents !== owner.maxCoverageAmountCents) {
    await requestProspectReevaluation(tx, { ownerId: owner.id });
  }
  return updated;
}

/** A managed owner (decisions §4 `owner create-managed`): the partner cannot create or configure it. */
export async function createManagedOwner(tx: Tx, input: { name: string; externalOrgId: string }): Promise<Owner> {
  const [existing] = await tx.select().from(propertyOwners).where(eq(propertyOwners.externalOrgId, input.externalOrgId));
  if (existing) throw errors.conflict(`external_org_id ${input.externalOrgId} is already in use`);
  const [owner] = await tx
    .insert(propertyOwners)
    .values({
      slug: await availableSlug(tx, input.name),
      externalOrgId: input.externalOrgId,
      name: input.name,
      managed: true,
      purchaseFlowEnabled: true,
      signingSecretEncrypted: encryptSecret(newSigningSecret()),
    })
    .returning();
  return owner;
}

/** `owner create-managed` as staff (the CLI): the owner and its audit row in one transaction (decisions §12). */
export async function createManagedOwnerAs(db: Db, actor: AuditActor, input: { name: string; externalOrgId: string }): Promise<Owner> {
  return db.transaction(async (tx) => {
    const owner = await createManagedOwner(tx, input);
    await recordAudit(tx, actor, {
      action: "owner.created",
      subject: { type: "owner", id: owner.slug },
      ownerId: owner.id,
      after: { name: owner.name, external_org_id: owner.externalOrgId, managed: true },
    });
    return owner;
  });
}

/** The owner a slug names: for a merged owner, its survivor (decisions §12 Owners). */
export async function findOwnerBySlug(tx: Tx, slug: string): Promise<Owner | undefined> {
  const [owner] = await tx
    .select()
    .from(propertyOwners)
    .where(eq(propertyOwners.id, sql`(select coalesce(o.merged_into_id, o.id) from property_owners o where o.slug = ${slug})`));
  return owner;
}

/** The owner of this very slug, merged or not (the console and the merge itself name owners this way). */
export async function findOwnerBySlugExactly(tx: Tx, slug: string): Promise<Owner | undefined> {
  const [owner] = await tx.select().from(propertyOwners).where(eq(propertyOwners.slug, slug));
  return owner;
}

export function newSigningSecret(): string {
  return `whsec_${randomToken(32)}`;
}

/** A readable, URL-safe slug from the owner's name; a short random suffix when the plain one is taken. */
export function slugify(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/g, "");
  return base || "owner";
}

/**
 * Slugs a console page under `/console/owners/` already takes (the merge screen): an owner named so
 * gets a suffix, as if the plain slug were taken, so every owner has its page.
 */
export const RESERVED_OWNER_SLUGS: ReadonlySet<string> = new Set(["merge"]);

async function availableSlug(tx: Tx, name: string): Promise<string> {
  const base = slugify(name);
  const taken = RESERVED_OWNER_SLUGS.has(base)
    ? [{ slug: base }]
    : await tx
        .select({ slug: propertyOwners.slug })
        .from(propertyOwners)
        .where(and(eq(propertyOwners.slug, base)));
  return taken.length === 0
    ? base
    : `${base}-${randomToken(4)
        .toLowerCase()
        .replace(/[^a-z0-9]/g, "x")}`;
}
