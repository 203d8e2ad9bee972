import { and, desc, eq, inArray, ne } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { billingCharges, delinquencies } from "../billing/billing.table";
import { storedMethodsOf } from "../billing/method";
import { applications } from "../enrollment/applications/applications.table";
import { propertyOwners } from "../owners/owners.table";
import { paymentCharges, paymentMethods } from "../payments/payments.table";
import { PRODUCT_NAMES } from "../policies/documents/declarations";
import { formatDate } from "../policies/documents/format";
import { archivesOfPolicy } from "../policies/documents/storage";
import type { Policy, PolicyStatus } from "../policies/policies.table";
import { refundsOfPolicy } from "../policies/refunds/refunds";
import type { PolicyRefund } from "../policies/refunds/refunds.table";
import { properties, units } from "../roster/roster.table";
import { policiesOfEmail, policyOfEmail } from "./owned";

/** One payment the renter made or that failed: the purchase, a month, a settlement (decisions §19). */
export type AccountPayment = { at: Date; description: string; amountCents: number; status: "succeeded" | "declined"; last4?: string };
/**
 * A refund of a cancellation (decisions §18 Refunds) as the renter reads it: the day it was asked of
 * the processor, the amount, and the processor's state in words (`requires_action` is still pending
 * to the renter: nothing for them to do).
 */
export type AccountRefund = { id: number; at: Date; amountCents: number; status: "pending" | "refunded" | "failed" | "canceled" };
export type AccountCard = { brand: string; last4: string; expMonth: number; expYear: number };

export type AccountPolicy = {
  id: number;
  policyNumber: string;
  ownerName: string;
  productName: string;
  status: PolicyStatus;
  coverageAmountCents: number;
  coverageStartDate: string;
  coverageEndDate: string;
  premiumCents: number;
  cadence: "upfront" | "monthly";
  address: string;
  unitName: string;
  documentsUrl?: string;
  /** What an open delinquency has outstanding: the account's "Pay now". */
  amountDueCents?: number;
  /** The card the next monthly charge uses (monthly policies only). */
  card?: AccountCard;
  payments: AccountPayment[];
  refunds: AccountRefund[];
};

/** Every policy of the signed-in renter's email, under every owner, newest first. */
export async function accountPolicies(tx: Tx, email: string): Promise<AccountPolicy[]> {
  return viewsOf(tx, await policiesOfEmail(tx, email));
}

/** One policy of the renter's, or undefined (a 404) when it is not theirs. */
export async function accountPolicy(tx: Tx, email: string, policyId: number): Promise<AccountPolicy | undefined> {
  const policy = await policyOfEmail(tx, email, policyId);
  return policy ? (await viewsOf(tx, [policy]))[0] : undefined;
}

const productName = (policy: Policy) => (policy.productType === "service_deposit" ? "Service deposit" : PRODUCT_NAMES[policy.productType]);

async function viewsOf(tx: Tx, list: Policy[]): Promise<AccountPolicy[]> {
  if (list.length === 0) return [];
  const ids = list.map((policy) => policy.id);
  const places = await tx
    .select({ id: units.id, unitName: units.name, line: properties.addressLineOne, city: properties.city, state: properties.state, zip: properties.zip })
    .from(units)
    .innerJoin(properties, eq(properties.id, units.propertyId))
    .where(
      inArray(
        units.id,
        list.map((policy) => policy.unitId),
      ),
    );
  const owners = await tx
    .select({ id: propertyOwners.id, name: propertyOwners.name })
    .from(propertyOwners)
    .where(
      inArray(
        propertyOwners.id,
        list.map((policy) => policy.ownerId),
      ),
    );
  const open = await tx
    .select({ policyId: delinquencies.policyId, amountCents: delinquencies.amountCents })
    .from(delinquencies)
    .where(and(inArray(delinquencies.policyId, ids), eq(delinquencies.status, "active")));
  const methods = await storedMethodsOf(
    tx,
    list.filter((policy) => policy.cadence === "monthly").map((policy) => policy.id),
  );
  const cards = methods.size
    ? await tx
        .select({
          id: paymentMethods.id,
          brand: paymentMethods.brand,
          last4: paymentMethods.last4,
          expMonth: paymentMethods.expMonth,
          expYear: paymentMethods.expYear,
        })
        .from(paymentMethods)
        .where(inArray(paymentMethods.id, [...methods.values()]))
    : [];
  const purchases = await tx
    .select({ applicationId: applications.id, charge: paymentCharges })
    .from(applications)
    .innerJoin(paymentCharges, eq(paymentCharges.id, applications.paymentChargeId))
    .where(
      inArray(
        applications.id,
        list.flatMap((policy) => (policy.applicationId === null ? [] : [policy.applicationId])),
      ),
    );
  const billed = await tx
    .select({ charge: billingCharges, last4: paymentCharges.last4 })
    .from(billingCharges)
    .leftJoin(paymentCharges, eq(paymentCharges.id, billingCharges.processorChargeId))
    .where(and(inArray(billingCharges.policyId, ids), ne(billingCharges.status, "pending")))
    .orderBy(desc(billingCharges.id));

  const result: AccountPolicy[] = [];
  for (const policy of list) {
    const place = places.find((row) => row.id === policy.unitId);
    const [latest] = await archivesOfPolicy(tx, policy.id);
    const methodId = methods.get(policy.id);
    const card = cards.find((row) => row.id === methodId);
    const purchase = purchases.find((row) => row.applicationId === policy.applicationId)?.charge;
    const payments: AccountPayment[] = billed
      .filter((row) => row.charge.policyId === policy.id)
      .map(({ charge, last4 }) => ({
        at: charge.completedAt ?? charge.createdAt,
        description: charge.kind === "settlement" ? "Overdue premium" : `Monthly premium${charge.periodStart ? ` from ${formatDate(charge.periodStart)}` : ""}`,
        amountCents: charge.amountCents,
        status: charge.status === "succeeded" ? "succeeded" : "declined",
        last4: last4 ?? undefined,
      }));
    if (purchase?.status === "succeeded") {
      payments.push({
        at: purchase.createdAt,
        description: "Purchase",
        amountCents: purchase.amountCents,
        status: "succeeded",
        last4: purchase.last4 ?? undefined,
      });
    }
    result.push({
      id: policy.id,
      policyNumber: policy.policyNumber,
      ownerName: owners.find((row) => row.id === policy.ownerId)?.name ?? "",
      productName: productName(policy),
      status: policy.status,
      coverageAmountCents: policy.coverageAmountCents,
      coverageStartDate: policy.coverageStartDate,
      coverageEndDate: policy.coverageEndDate,
      premiumCents: policy.premiumCents,
      cadence: policy.cadence,
      address: place ? `${place.line}, ${place.city}, ${place.state} ${place.zip}` : "",
      unitName: place?.unitName ?? "",
      documentsUrl: latest?.url,
      amountDueCents: open.find((row) => row.policyId === policy.id)?.amountCents,
      card: card ? { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear } : undefined,
      payments,
      refunds: await refundsOf(tx, policy),
    });
  }
  return result;
}

const REFUND_STATUS: Record<PolicyRefund["status"], AccountRefund["status"]> = {
  pending: "pending",
  requires_action: "pending",
  succeeded: "refunded",
  failed: "failed",
  canceled: "canceled",
};

/** Refunds of a canceled upfront policy (decisions §18 Refunds): the policy's refund rows, newest first. */
async function refundsOf(tx: Tx, policy: Policy): Promise<AccountRefund[]> {
  return (await refundsOfPolicy(tx, policy.id)).map((refund) => ({
    id: refund.id,
    at: refund.createdAt,
    amountCents: refund.amountCents,
    status: REFUND_STATUS[refund.status],
  }));
}
