import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { propertyOwners } from "../../owners/owners.table";
import { paymentMethods } from "../../payments/payments.table";
import { policies } from "../../policies/policies.table";
import { BILLING_CHARGE_KINDS, BILLING_CHARGE_STATUSES, billingCharges, DELINQUENCY_STATUSES, delinquencies } from "../billing.table";
import { delinquencyRef } from "../delinquencies";
import { BILLING_MESSAGES as M } from "../messages";
import { storedMethodOf } from "../method";
import { nextUncharged } from "../schedule";

/** What the console shows of billing (decisions §12 Prospects and policies; docs/decisions.md, "Billing and delinquencies"). Explicit allowlists. */

const delinquencyFields = {
  /** `delinquency_<id>`, as partners see it. */
  delinquency_id: z.string(),
  status: z.enum(DELINQUENCY_STATUSES),
  amount_cents: z.number().int(),
  settled_cents: z.number().int().nullable(),
  opened_at: z.string(),
  resolved_at: z.string().nullable(),
};

export const policyBilling = z.object({
  policy_id: z.number().int(),
  policy_number: z.string(),
  cadence: z.enum(["upfront", "monthly"]),
  premium_cents: z.number().int(),
  /** The start of the first month not charged yet (monthly policies being billed); the cron charges it on that day. */
  next_charge_on: z.string().nullable(),
  /** The card kept at purchase: brand and last four digits only. */
  payment_method: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  charges: z.array(
    z.object({
      id: z.number().int(),
      kind: z.enum(BILLING_CHARGE_KINDS),
      period_start: z.string().nullable(),
      amount_cents: z.number().int(),
      status: z.enum(BILLING_CHARGE_STATUSES),
      processor_charge_id: z.string().nullable(),
      decline_code: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  delinquencies: z.array(z.object(delinquencyFields)),
});
export type PolicyBilling = z.infer<typeof policyBilling>;

const iso = (at: Date | null) => (at ? at.toISOString() : null);

export async function billingOfPolicy(db: Tx, policyId: number): Promise<PolicyBilling> {
  const [policy] = await db.select().from(policies).where(eq(policies.id, policyId));
  if (!policy) throw errors.notFound(M.policyNotFound);
  const methodId = await storedMethodOf(db, policy.id);
  const [method] = methodId
    ? await db.select({ brand: paymentMethods.brand, last4: paymentMethods.last4 }).from(paymentMethods).where(eq(paymentMethods.id, methodId))
    : [];
  const charges = await db.select().from(billingCharges).where(eq(billingCharges.policyId, policy.id)).orderBy(desc(billingCharges.id)).limit(200);
  const owed = await db.select().from(delinquencies).where(eq(delinquencies.policyId, policy.id)).orderBy(desc(delinquencies.id)).limit(100);
  const billed = policy.cadence === "monthly" && (policy.status === "active" || policy.status === "upcoming");
  return {
    policy_id: policy.id,
    policy_number: policy.policyNumber,
    cadence: policy.cadence,
    premium_cents: policy.premiumCents,
    next_charge_on: billed ? (nextUncharged(policy, chargedMonths(charges))?.start ?? null) : null,
    payment_method: method ?? null,
    charges: charges.map((charge) => ({
      id: charge.id,
      kind: charge.kind,
      period_start: charge.periodStart,
      amount_cents: charge.amountCents,
      status: charge.status,
      processor_charge_id: charge.processorChargeId,
      decline_code: charge.declineCode,
      created_at: charge.createdAt.toISOString(),
    })),
    delinquencies: owed.map(delinquencyView),
  };
}

/** The months already charged (paid or declined: a declined month is owed through the delinquency). */
function chargedMonths(charges: (typeof billingCharges.$inferSelect)[]): Set<number> {
  return new Set(charges.flatMap((charge) => (charge.kind === "period" && charge.periodIndex !== null ? [charge.periodIndex] : [])));
}

function delinquencyView(row: typeof delinquencies.$inferSelect) {
  return {
    delinquency_id: delinquencyRef(row.id),
    status: row.status,
    amount_cents: row.amountCents,
    settled_cents: row.settledCents,
    opened_at: row.openedAt.toISOString(),
    resolved_at: iso(row.resolvedAt),
  };
}

export const delinquencySearchInput = z.object({
  status: z.enum(DELINQUENCY_STATUSES).optional(),
  /** The owner's slug, exactly (any case). */
  owner: z.string().trim().max(100).optional(),
  /** Keyset paging: delinquencies with a smaller id than this one. */
  cursor: z.number().int().positive().nullish(),
  limit: z.number().int().min(1).max(200).default(50),
});

export const delinquencyRow = z.object({
  id: z.number().int(),
  ...delinquencyFields,
  policy_id: z.number().int(),
  policy_number: z.string(),
  owner_slug: z.string(),
  owner_name: z.string(),
});
export type DelinquencyRow = z.infer<typeof delinquencyRow>;

/** `/console/delinquencies`: newest first, by status and owner. */
export async function searchDelinquencies(db: Tx, input: z.input<typeof delinquencySearchInput>): Promise<DelinquencyRow[]> {
  const { status, owner, cursor, limit } = delinquencySearchInput.parse(input);
  const conditions: SQL[] = [];
  if (status) conditions.push(eq(delinquencies.status, status));
  if (owner) conditions.push(eq(sql`lower(${propertyOwners.slug})`, owner.toLowerCase()));
  if (cursor) conditions.push(lt(delinquencies.id, cursor));
  const rows = await db
    .select({ delinquency: delinquencies, policyNumber: policies.policyNumber, ownerSlug: propertyOwners.slug, ownerName: propertyOwners.name })
    .from(delinquencies)
    .innerJoin(policies, eq(policies.id, delinquencies.policyId))
    .innerJoin(propertyOwners, eq(propertyOwners.id, policies.ownerId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(delinquencies.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.delinquency.id,
    ...delinquencyView(row.delinquency),
    policy_id: row.delinquency.policyId,
    policy_number: row.policyNumber,
    owner_slug: row.ownerSlug,
    owner_name: row.ownerName,
  }));
}
