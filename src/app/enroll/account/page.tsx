import Link from "next/link";
import { type AccountPolicy, accountPolicies } from "@/features/account/overview";
import { getDb } from "@/server/db/client";
import styles from "../_components/enroll.module.css";
import { formatDate, formatUsd } from "../_components/format";
import local from "./_components/account.module.css";
import { AccountFrame } from "./_components/account-frame";
import { RequestLinkForm } from "./_components/request-link-form";
import { ACCOUNT_PATH, currentRenter } from "./_components/session";
import { requestLinkAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Your deposit coverage" };

/** A refund's state in the renter's words (`AccountRefund`). */
const REFUND_STATUS_WORDS: Record<AccountPolicy["refunds"][number]["status"], string> = {
  pending: "On its way",
  refunded: "Refunded",
  failed: "Failed",
  canceled: "Canceled",
};

const DONE: Record<string, string> = {
  paid: "Payment received. Your policy is up to date.",
  "nothing-due": "Nothing was due: no payment was taken.",
  card: "Your new card is saved. Your next monthly payment will use it.",
};

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * `{enrollment_host}/account` (decisions §19): signed out, the email form; signed in, every policy of
 * the session's email under every owner, with its payments, refunds, Pay now and Update card.
 */
export default async function AccountPage({ searchParams }: Props) {
  const renter = await currentRenter();
  if (!renter) {
    return (
      <AccountFrame page="sign-in">
        <h1 className={styles.title}>Sign in to your account</h1>
        <p className={styles.lead}>See your policies, payments and documents. We email you a link to sign in: no password.</p>
        <RequestLinkForm action={requestLinkAction} />
      </AccountFrame>
    );
  }
  const policies = await accountPolicies(await getDb(), renter.email);
  const done = (await searchParams).done;
  const confirmation = typeof done === "string" ? DONE[done] : undefined;
  return (
    <AccountFrame page="policies" email={renter.email}>
      <h1 className={styles.title}>Your policies</h1>
      {confirmation ? (
        <p role="status" className={local.confirmation}>
          {confirmation}
        </p>
      ) : null}
      {policies.length === 0 ? <p className={styles.lead}>No policy uses this email yet.</p> : null}
      {policies.map((policy) => (
        <PolicyCard key={policy.id} policy={policy} />
      ))}
    </AccountFrame>
  );
}

function PolicyCard({ policy }: { policy: AccountPolicy }) {
  const heading = `policy-${policy.id}`;
  return (
    <section aria-labelledby={heading} className={local.card} data-policy-number={policy.policyNumber}>
      <h2 id={heading}>
        {policy.productName}, policy {policy.policyNumber}
        <span className={local.status}>{policy.status}</span>
      </h2>
      {policy.amountDueCents !== undefined ? (
        <div className={local.due}>
          <p>
            <strong>{formatUsd(policy.amountDueCents)} is overdue.</strong> Pay it now to keep your coverage in good standing.
          </p>
          <p>
            <Link className={styles.primaryLink} href={`${ACCOUNT_PATH}/policies/${policy.id}/pay`}>
              Pay now<span className={local.visuallyHidden}> for policy {policy.policyNumber}</span>
            </Link>
          </p>
        </div>
      ) : null}
      <dl className={styles.facts}>
        <div>
          <dt>Property owner</dt>
          <dd>{policy.ownerName}</dd>
        </div>
        <div>
          <dt>Address</dt>
          <dd>
            {policy.address}, unit {policy.unitName}
          </dd>
        </div>
        <div>
          <dt>Coverage</dt>
          <dd>{formatUsd(policy.coverageAmountCents)}</dd>
        </div>
        <div>
          <dt>Dates</dt>
          <dd>
            {formatDate(policy.coverageStartDate)} – {formatDate(policy.coverageEndDate)}
          </dd>
        </div>
        <div>
          <dt>Premium</dt>
          <dd>{policy.cadence === "monthly" ? `${formatUsd(policy.premiumCents)} a month` : `${formatUsd(policy.premiumCents)}, paid upfront`}</dd>
        </div>
        {policy.card ? (
          <div>
            <dt>Card</dt>
            <dd>
              {brandName(policy.card.brand)} ending {policy.card.last4}, expires {String(policy.card.expMonth).padStart(2, "0")}/{policy.card.expYear}
            </dd>
          </div>
        ) : null}
      </dl>
      <div className={local.actions}>
        {policy.documentsUrl ? (
          <a href={policy.documentsUrl}>
            Download documents<span className={local.visuallyHidden}> of policy {policy.policyNumber}</span>
          </a>
        ) : null}
        {policy.cadence === "monthly" && (policy.status === "active" || policy.status === "upcoming" || policy.status === "pending") ? (
          <Link href={`${ACCOUNT_PATH}/policies/${policy.id}/card`}>
            Update card<span className={local.visuallyHidden}> of policy {policy.policyNumber}</span>
          </Link>
        ) : null}
      </div>
      <h3>Payments</h3>
      {policy.payments.length === 0 ? (
        <p className={styles.muted}>No payments yet.</p>
      ) : (
        <div className={local.scroll}>
          <table className={local.table}>
            <caption className={local.visuallyHidden}>Payments of policy {policy.policyNumber}</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">For</th>
                <th scope="col">Amount</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {policy.payments.map((payment) => (
                <tr key={`${payment.at.toISOString()}-${payment.description}-${payment.amountCents}`}>
                  <td>{formatDate(payment.at.toISOString().slice(0, 10))}</td>
                  <td>
                    {payment.description}
                    {payment.last4 ? `, card ending ${payment.last4}` : ""}
                  </td>
                  <td>{formatUsd(payment.amountCents)}</td>
                  <td>{payment.status === "succeeded" ? "Paid" : "Declined"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>Refunds</h3>
      {policy.refunds.length === 0 ? (
        <p className={styles.muted}>No refunds.</p>
      ) : (
        <div className={local.scroll}>
          <table className={local.table}>
            <caption className={local.visuallyHidden}>Refunds of policy {policy.policyNumber}</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {policy.refunds.map((refund) => (
                <tr key={refund.id}>
                  <td>{formatDate(refund.at.toISOString().slice(0, 10))}</td>
                  <td>{formatUsd(refund.amountCents)}</td>
                  <td>{REFUND_STATUS_WORDS[refund.status]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** A card brand as the processor names it (`visa`, `mastercard`) in the renter's words: "Visa", "Mastercard". */
const brandName = (brand: string) => brand.charAt(0).toUpperCase() + brand.slice(1);
