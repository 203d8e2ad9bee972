import { redirect } from "next/navigation";
import type { AccountPolicy } from "@/features/account/overview";
import { cardUpdateReturn, openStripeCardUpdate, type StripeCardView } from "@/features/account/stripe-card";
import { getConfig } from "@/server/config";
import { getDb } from "@/server/db/client";
import { toAppError } from "@/server/to-app-error";
import styles from "../../../../_components/enroll.module.css";
import { PayForm } from "../../../../_components/pay-form";
import { StripePayForm } from "../../../../_components/stripe-pay-form";
import { PolicyPage, renterPolicyOf } from "../../../_components/policy-page";
import { ACCOUNT_PATH } from "../../../_components/session";
import { updateCardAction, updateCardStripeAction } from "../../../actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Update card" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * Update card (decisions §19): a monthly policy's next charges use the card saved here. Another
 * renter's policy: 404. With Stripe (decisions §18) the card goes into the Payment Element for a
 * SetupIntent on the renter's Customer (3-D Secure returns here with `setup_intent`, retrieved, never
 * believed); the simulated processor keeps its card form.
 */
export default async function UpdateCardPage({ params, searchParams }: Props) {
  const { email, policy } = await renterPolicyOf(params);
  if (getConfig().paymentProcessor !== "stripe")
    return (
      <PolicyPage page="card" email={email} title="Update card">
        <Lead policy={policy} />
        <PayForm action={updateCardAction.bind(null, policy.id)} payLabel="Save card" attempt="account" />
      </PolicyPage>
    );

  const db = await getDb();
  const returned = (await searchParams).setup_intent;
  let view: StripeCardView;
  try {
    const back = typeof returned === "string" ? await cardUpdateReturn(db, email, policy.id, returned) : undefined;
    view = back === "saved" ? { outcome: "saved" } : await openStripeCardUpdate(db, email, policy.id);
  } catch (error) {
    const failure = toAppError(error);
    if (failure.kind !== "conflict" && failure.kind !== "unavailable") throw error;
    return (
      <PolicyPage page="card" email={email} title="Update card">
        <p role="alert" className={styles.notice}>
          {failure.message}
        </p>
      </PolicyPage>
    );
  }
  if (view.outcome === "saved") redirect(`${ACCOUNT_PATH}?done=card`);
  if (view.outcome === "processing")
    return (
      <PolicyPage page="card" email={email} title="Update card">
        <p role="status" className={styles.notice}>
          Your bank is still checking this card. The policy keeps its current card until it confirms.
        </p>
      </PolicyPage>
    );
  return (
    <PolicyPage page="card" email={email} title="Update card" payment={{ processor: "stripe", intentId: view.form.intentId }}>
      <Lead policy={policy} />
      <StripePayForm action={updateCardStripeAction.bind(null, policy.id)} payLabel="Save card" stripe={view.form} />
    </PolicyPage>
  );
}

function Lead({ policy }: { policy: AccountPolicy }) {
  return (
    <p className={styles.lead}>
      Policy {policy.policyNumber} ({policy.ownerName}){policy.card ? `: now charged to the ${policy.card.brand} card ending ${policy.card.last4}` : ""}. The
      next monthly payment uses the card you save here.
    </p>
  );
}
