import { formatDate, formatInstant, formatUsd } from "../../policies/documents/format";
import type { MessageData, WithOwner } from "../kinds";
import { Action, Figures, MessageLayout, Paragraph, Rule } from "./layout";

/** One component per kind of message (decisions §19 Messages); HTML and text are both rendered from it. */

export function AccountSignIn({ link, expiresAt, ownerName }: WithOwner<MessageData["account_sign_in"]>) {
  return (
    <MessageLayout preview="Your link to sign in to your renter account" heading="Sign in to your renter account" ownerName={ownerName}>
      <Paragraph>Use this link to sign in. It works once and until {formatInstant(new Date(expiresAt))}.</Paragraph>
      <Action href={link}>Sign in</Action>
      <Paragraph>If you did not ask to sign in, ignore this message: nothing happens without the link.</Paragraph>
    </MessageLayout>
  );
}

export function PolicyIssued(d: WithOwner<MessageData["policy_issued"]>) {
  return (
    <MessageLayout preview={`Policy ${d.policyNumber}: your coverage and documents`} heading="Your policy is issued" ownerName={d.ownerName}>
      <Paragraph>Thank you. Your {d.productName.toLowerCase()} is in place. Keep this message: it has your policy number and documents.</Paragraph>
      <Figures
        rows={[
          ["Policy number", d.policyNumber],
          ["Coverage", formatUsd(d.coverageAmountCents)],
          ["Coverage dates", `${formatDate(d.coverageStartDate)} to ${formatDate(d.coverageEndDate)}`],
          ["Premium", d.cadence === "monthly" ? `${formatUsd(d.premiumCents)} per month` : `${formatUsd(d.premiumCents)} paid upfront`],
        ]}
      />
      {d.documentsUrl ? <Action href={d.documentsUrl}>Download your policy documents</Action> : null}
      <Rule />
      <Paragraph>
        Your renter account shows this policy, its payments and its documents at any time: <a href={d.accountUrl}>{d.accountUrl}</a>
      </Paragraph>
    </MessageLayout>
  );
}

export function PolicyDocumentsUpdated(d: WithOwner<MessageData["policy_documents_updated"]>) {
  return (
    <MessageLayout preview={`New documents for policy ${d.policyNumber}`} heading="Your policy documents are updated" ownerName={d.ownerName}>
      <Paragraph>Your policy {d.policyNumber} changed, and its documents were issued again. These replace the ones you have.</Paragraph>
      <Action href={d.documentsUrl}>Download the updated documents</Action>
      <Paragraph>
        Your renter account: <a href={d.accountUrl}>{d.accountUrl}</a>
      </Paragraph>
    </MessageLayout>
  );
}

export function PaymentReceipt(d: WithOwner<MessageData["payment_receipt"]>) {
  return (
    <MessageLayout preview={`${formatUsd(d.amountCents)} received for policy ${d.policyNumber}`} heading="Payment receipt" ownerName={d.ownerName}>
      <Paragraph>We received your payment. Thank you.</Paragraph>
      <Figures
        rows={[
          ["Amount paid", formatUsd(d.amountCents)],
          ["For", d.description],
          ["Policy number", d.policyNumber],
          ["Paid on", formatInstant(new Date(d.paidAt))],
          ...(d.reference ? ([["Reference", d.reference]] as const) : []),
        ]}
      />
      <Paragraph>
        Every payment of your policy is in your renter account: <a href={d.accountUrl}>{d.accountUrl}</a>
      </Paragraph>
    </MessageLayout>
  );
}

export function PaymentFailed(d: WithOwner<MessageData["payment_failed"]>) {
  return (
    <MessageLayout
      preview={`${formatUsd(d.amountDueCents)} is due on policy ${d.policyNumber}`}
      heading="Your payment did not go through"
      ownerName={d.ownerName}
    >
      <Paragraph>We could not charge your card for policy {d.policyNumber}. Your policy stays in place while the amount below is paid.</Paragraph>
      <Figures
        rows={[
          ["Amount due", formatUsd(d.amountDueCents)],
          ["Policy number", d.policyNumber],
        ]}
      />
      <Action href={d.payUrl}>Pay now</Action>
      <Paragraph>Until it is paid, the policy cannot be renewed.</Paragraph>
    </MessageLayout>
  );
}

export function DelinquencyResolved(d: WithOwner<MessageData["delinquency_resolved"]>) {
  return (
    <MessageLayout preview={`Policy ${d.policyNumber} is up to date`} heading="Your policy is up to date" ownerName={d.ownerName}>
      <Paragraph>
        We received {formatUsd(d.amountPaidCents)} for policy {d.policyNumber}. Nothing more is due.
      </Paragraph>
      <Paragraph>
        Your renter account: <a href={d.accountUrl}>{d.accountUrl}</a>
      </Paragraph>
    </MessageLayout>
  );
}

export function ApplicationDeclined(d: WithOwner<MessageData["application_declined"]>) {
  return (
    <MessageLayout preview="About your insurance application" heading="We cannot offer you a policy" ownerName={d.ownerName}>
      <Paragraph>
        Thank you for applying{d.unitLabel ? ` for ${d.unitLabel}` : ""}. We are not able to offer you a deposit alternative for this lease, so nothing was
        charged.
      </Paragraph>
      <Paragraph>{d.ownerName ? `${d.ownerName} can tell you` : "Your landlord can tell you"} how to provide your security deposit in another way.</Paragraph>
    </MessageLayout>
  );
}

export function PolicyCanceled(d: WithOwner<MessageData["policy_canceled"]>) {
  return (
    <MessageLayout preview={`Policy ${d.policyNumber} is canceled`} heading="Your policy is canceled" ownerName={d.ownerName}>
      <Paragraph>
        Policy {d.policyNumber} is canceled as of {formatDate(d.canceledOn)}. It no longer covers your lease.
      </Paragraph>
      {d.refundCents !== undefined && d.refundCents > 0 ? <Figures rows={[["Refund", `${formatUsd(d.refundCents)}, to the card you paid with`]]} /> : null}
      <Paragraph>
        Your renter account: <a href={d.accountUrl}>{d.accountUrl}</a>
      </Paragraph>
    </MessageLayout>
  );
}

export function CoverageEnding(d: WithOwner<MessageData["coverage_ending"]>) {
  return (
    <MessageLayout preview={`Coverage ends on ${formatDate(d.coverageEndDate)}`} heading="Your coverage ends soon" ownerName={d.ownerName}>
      <Paragraph>
        Policy {d.policyNumber} covers your lease until {formatDate(d.coverageEndDate)}. If your lease goes on after that, {d.ownerName ?? "your landlord"} can
        tell you how to renew.
      </Paragraph>
      <Paragraph>
        Your renter account: <a href={d.accountUrl}>{d.accountUrl}</a>
      </Paragraph>
    </MessageLayout>
  );
}
