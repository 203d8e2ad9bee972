import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { accountPolicy } from "@/features/account/overview";
import { getDb } from "@/server/db/client";
import styles from "../../../../_components/enroll.module.css";
import { formatUsd } from "../../../../_components/format";
import { PayForm } from "../../../../_components/pay-form";
import local from "../../../_components/account.module.css";
import { AccountFrame } from "../../../_components/account-frame";
import { ACCOUNT_PATH, currentRenter, policyIdOf } from "../../../_components/session";
import { payNowAction } from "../../../actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Pay now" };

type Props = { params: Promise<{ id: string }> };

/**
 * Pay now (decisions §19): the open delinquency of one of the renter's policies, paid with a card
 * through the processor interface. The payment-failed message links here; signed out, the renter
 * signs in first. Another renter's policy id answers 404.
 */
export default async function PayNowPage({ params }: Props) {
  const renter = await currentRenter();
  if (!renter) redirect(ACCOUNT_PATH);
  const id = policyIdOf((await params).id);
  const policy = id === undefined ? undefined : await accountPolicy(await getDb(), renter.email, id);
  if (!policy) notFound();
  return (
    <AccountFrame page="pay" email={renter.email}>
      <Link className={local.back} href={ACCOUNT_PATH}>
        Back to your policies
      </Link>
      <h1 className={styles.title}>Pay now</h1>
      {policy.amountDueCents === undefined ? (
        <p className={styles.lead}>Nothing is due on policy {policy.policyNumber}.</p>
      ) : (
        <>
          <div className={styles.summary}>
            <p className={styles.summaryLine}>
              <span>
                Overdue on policy {policy.policyNumber} ({policy.ownerName})
              </span>
              <span>{formatUsd(policy.amountDueCents)}</span>
            </p>
          </div>
          <PayForm action={payNowAction.bind(null, policy.id)} payLabel={`Pay ${formatUsd(policy.amountDueCents)}`} attempt="account" />
        </>
      )}
    </AccountFrame>
  );
}
