import { eq } from "drizzle-orm";
import type { Db, Tx } from "../../server/db/client";
import { noticeDocuments } from "../messages/notices";
import { propertyOwners } from "../owners/owners.table";
import { prospects } from "../prospects/prospects.table";
import { properties, units } from "../roster/roster.table";
import { buildPolicyArchive } from "./documents/archive";
import type { DeclarationsInput } from "./documents/input";
import { archivesOfPolicy, type StoredArchive, storePolicyArchive } from "./documents/storage";
import { emitPolicyEvent } from "./events";
import { type Policy, policies } from "./policies.table";

/**
 * What the declarations page shows (decisions §11 Documents), read from the policy's records: the
 * insured (the prospect's name, else its email), the building's address as stored, the unit, the
 * coverage, dates and premium, and the owner. Undefined for a policy gone (reset) or of a product
 * we do not write documents for.
 */
export async function declarationsOf(db: Tx, policy: Policy): Promise<DeclarationsInput | undefined> {
  if (policy.productType === "service_deposit") return undefined;
  const [row] = await db
    .select({
      ownerName: propertyOwners.name,
      lineOne: properties.addressLineOne,
      city: properties.city,
      state: properties.state,
      zip: properties.zip,
      unitName: units.name,
    })
    .from(properties)
    .innerJoin(units, eq(units.id, policy.unitId))
    .innerJoin(propertyOwners, eq(propertyOwners.id, policy.ownerId))
    .where(eq(properties.id, policy.propertyId));
  if (!row) return undefined;
  const [renter] = policy.prospectId
    ? await db
        .select({ first: prospects.firstName, last: prospects.lastName, email: prospects.email })
        .from(prospects)
        .where(eq(prospects.id, policy.prospectId))
    : [];
  const name = [renter?.first, renter?.last].filter(Boolean).join(" ").trim() || renter?.email || "Policyholder";
  return {
    policyNumber: policy.policyNumber,
    insuredNames: [name],
    address: { lineOne: row.lineOne, city: row.city, state: row.state, zip: row.zip },
    unitName: row.unitName,
    productType: policy.productType,
    productVersion: policy.productVersion ?? undefined,
    coverageAmountCents: policy.coverageAmountCents,
    coverageStartDate: policy.coverageStartDate,
    coverageEndDate: policy.coverageEndDate,
    premium: { cadence: policy.cadence, amountCents: policy.premiumCents },
    ownerName: row.ownerName,
    issuedAt: policy.issuedAt,
  };
}

/**
 * Builds the policy's archive and publishes it (decisions §11 Documents): the PDFs and zip are made
 * outside any transaction; one transaction then stores the archive under a new unguessable key and
 * emits `policy.documents_updated` with its `policy_url` (the policy's state read in it, locked).
 * Each call is a new generation under a new key. Answers nothing for a policy that no longer exists.
 */
export async function regeneratePolicyDocuments(db: Db, policyId: number): Promise<StoredArchive | undefined> {
  const [policy] = await db.select().from(policies).where(eq(policies.id, policyId));
  if (!policy) return undefined;
  const input = await declarationsOf(db, policy);
  if (!input) return undefined;
  const archive = await buildPolicyArchive(input);
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(policies).where(eq(policies.id, policyId)).for("update");
    if (!current) return undefined;
    const first = (await archivesOfPolicy(tx, policyId)).length === 0;
    const stored = await storePolicyArchive(tx, { policyId, archive });
    await emitPolicyEvent(tx, "policy.documents_updated", current, { policyUrl: stored.url });
    // decisions §19: the first archive completes the policy's issue message, later ones are "documents updated".
    await noticeDocuments(tx, current, stored.url, first);
    return stored;
  });
}
