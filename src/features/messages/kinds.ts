import { z } from "zod";
import { formatDate, formatUsd } from "../policies/documents/format";
import type { RenterMessageKind } from "./renter-messages.table";

const url = z.string().url();
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const cents = z.number().int().min(0);
const policyNumber = z.string().min(1);

/**
 * Each kind's template input (decisions §19 Messages): the figures as of the change that caused the
 * message and absolute links. `ownerName` is added by `queueRenterMessage` from the owner given.
 */
export const MESSAGE_DATA = {
  account_sign_in: z.object({ link: url, expiresAt: z.string().datetime({ offset: true }) }),
  policy_issued: z.object({
    policyNumber,
    productName: z.string(),
    coverageAmountCents: cents,
    coverageStartDate: day,
    coverageEndDate: day,
    premiumCents: cents,
    cadence: z.enum(["upfront", "monthly"]),
    /** The archive's unguessable link (decisions §11 Documents); absent for a product without documents. */
    documentsUrl: url.optional(),
    accountUrl: url,
  }),
  policy_documents_updated: z.object({ policyNumber, documentsUrl: url, accountUrl: url }),
  payment_receipt: z.object({
    policyNumber,
    amountCents: cents,
    paidAt: z.string().datetime({ offset: true }),
    /** What it paid for: "Premium for March 2027", "Overdue premium". */
    description: z.string(),
    /** The processor's charge id, as the renter's bank statement may show it. */
    reference: z.string().optional(),
    accountUrl: url,
  }),
  payment_failed: z.object({ policyNumber, amountDueCents: cents, payUrl: url }),
  delinquency_resolved: z.object({ policyNumber, amountPaidCents: cents, accountUrl: url }),
  application_declined: z.object({ unitLabel: z.string().optional() }),
  policy_canceled: z.object({
    policyNumber,
    canceledOn: day,
    /** Present only when a refund exists for the cancellation (docs/decisions.md, "Renter messages: the outbox"). */
    refundCents: cents.optional(),
    accountUrl: url,
  }),
  coverage_ending: z.object({ policyNumber, coverageEndDate: day, accountUrl: url }),
} satisfies Record<RenterMessageKind, z.ZodTypeAny>;

export type MessageData = { [K in RenterMessageKind]: z.infer<(typeof MESSAGE_DATA)[K]> };
/** Every template also gets the owner's name (the renter's landlord), when the message concerns one. */
export type WithOwner<T> = T & { ownerName?: string };

/** Subject lines a person recognises (decisions §19): what happened and to which policy. */
export const SUBJECTS: { [K in RenterMessageKind]: (data: WithOwner<MessageData[K]>) => string } = {
  account_sign_in: () => "Your sign-in link",
  policy_issued: (d) => `Your policy ${d.policyNumber} is issued`,
  policy_documents_updated: (d) => `Updated documents for policy ${d.policyNumber}`,
  payment_receipt: (d) => `Receipt: ${formatUsd(d.amountCents)} paid for policy ${d.policyNumber}`,
  payment_failed: (d) => `Payment failed for policy ${d.policyNumber}: ${formatUsd(d.amountDueCents)} due`,
  delinquency_resolved: (d) => `Payment received: policy ${d.policyNumber} is up to date`,
  application_declined: (d) => (d.ownerName ? `Your insurance application for ${d.ownerName}` : "Your insurance application"),
  policy_canceled: (d) => `Policy ${d.policyNumber} is canceled`,
  coverage_ending: (d) => `Your coverage ends on ${formatDate(d.coverageEndDate)} (policy ${d.policyNumber})`,
};
