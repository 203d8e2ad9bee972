import { plainTextSelectors, render } from "@react-email/render";
import type { ComponentType } from "react";
import type { RenterMessageKind } from "../renter-messages.table";
import {
  AccountSignIn,
  ApplicationDeclined,
  CoverageEnding,
  DelinquencyResolved,
  PaymentFailed,
  PaymentReceipt,
  PolicyCanceled,
  PolicyDocumentsUpdated,
  PolicyIssued,
} from "./policy-messages";

// biome-ignore lint/suspicious/noExplicitAny: each kind's component takes that kind's data, checked by its zod schema first.
const TEMPLATES: Record<RenterMessageKind, ComponentType<any>> = {
  account_sign_in: AccountSignIn,
  policy_issued: PolicyIssued,
  policy_documents_updated: PolicyDocumentsUpdated,
  payment_receipt: PaymentReceipt,
  payment_failed: PaymentFailed,
  delinquency_resolved: DelinquencyResolved,
  application_declined: ApplicationDeclined,
  policy_canceled: PolicyCanceled,
  coverage_ending: CoverageEnding,
};

/** The text part keeps the heading as written (html-to-text shouts headings by default). */
const TEXT_OPTIONS = {
  selectors: [...plainTextSelectors, { selector: "h1", options: { uppercase: false } }],
};

/** A message's HTML and plain text, both from its one component (decisions §19: react-email). */
export async function renderMessage(kind: RenterMessageKind, data: Record<string, unknown>): Promise<{ html: string; text: string }> {
  const Template = TEMPLATES[kind];
  const element = <Template {...data} />;
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true, htmlToTextOptions: TEXT_OPTIONS })]);
  return { html, text };
}
