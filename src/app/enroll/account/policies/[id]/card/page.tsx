import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { accountPolicy } from "@/features/account/overview";
import { getDb } from "@/server/db/client";
import styles from "../../../../_components/enroll.module.css";
import { PayForm } from "../../../../_components/pay-form";
import local from "../../../_components/account.module.css";
import { AccountFrame } from "../../../_components/account-frame";
import { ACCOUNT_PATH, currentRenter, policyIdOf } from "../../../_components/session";
import { updateCardAction } from "../../../actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Update card" };

type Props = { params: Promise<{ id: string }> };

/** Update card (decisions §19): a monthly policy's next charges use the card saved here. Another renter's policy: 404. */
export default async function UpdateCardPage({ params }: Props) {
  const renter = await currentRenter();
  if (!renter) redirect(ACCOUNT_PATH);
  const id = policyIdOf((await params).id);
  const policy = id === undefined ? undefined : await accountPolicy(await getDb(), renter.email, id);
  if (!policy) notFound();
  return (
    <AccountFrame page="card" email={renter.email}>
      <Link className={local.back} href={ACCOUNT_PATH}>
        Back to your policies
      </Link>
      <h1 className={styles.title}>Update card</h1>
      <p className={styles.lead}>
        Policy {policy.policyNumber} ({policy.ownerName}){policy.card ? `: now charged to the ${policy.card.brand} card ending ${policy.card.last4}` : ""}. The
        next monthly payment uses the card you save here.
      </p>
      <PayForm action={updateCardAction.bind(null, policy.id)} payLabel="Save card" attempt="account" />
    </AccountFrame>
  );
}
