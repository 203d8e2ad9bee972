import { redirect } from "next/navigation";
import type { AccountPolicy } from "@/features/account/overview";
import { openStripePayNow, payNowReturn, type StripePayNowView } from "@/features/account/stripe-payments";
import { getConfig } from "@/server/config";
import { getDb } from "@/server/db/client";
import { toAppError } from "@/server/to-app-error";
import styles from "../../../../_components/enroll.module.css";
import { formatUsd } from "../../../../_components/format";
import { PayForm } from "../../../../_components/pay-form";
import { StripePayForm } from "../../../../_components/stripe-pay-form";
import { PolicyPage, renterPolicyOf } from "../../../_components/policy-page";
import { ACCOUNT_PATH } from "../../../_components/session";
import { payNowAction, payNowStripeAction } from "../../../actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Pay now" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * Pay now (decisions §19): the open delinquency of one of the renter's policies. The payment-failed
 * message and the console's on-session link lead here; signed out, the renter signs in first.
 * Another renter's policy id answers 404. With Stripe (decisions §18) the card goes into Stripe's
 * Payment Element for an on-session PaymentIntent (3-D Secure returns here with `payment_intent`,
 * which is retrieved, never believed); the simulated processor keeps its card form.
 */
export default async function PayNowPage({ params, searchParams }: Props) {
  const { email, policy } = await renterPolicyOf(params);
  if (policy.amountDueCents === undefined)
    return (
      <PolicyPage page="pay" email={email} title="Pay now">
        <p className={styles.lead}>Nothing is due on policy {policy.policyNumber}.</p>
      </PolicyPage>
    );
  if (getConfig().paymentProcessor !== "stripe")
    return (
      <PolicyPage page="pay" email={email} title="Pay now">
        <Overdue policy={policy} amountCents={policy.amountDueCents} />
        <PayForm action={payNowAction.bind(null, policy.id)} payLabel={`Pay ${formatUsd(policy.amountDueCents)}`} attempt="account" />
      </PolicyPage>
    );

  const db = await getDb();
  const returned = (await searchParams).payment_intent;
  let view: StripePayNowView;
  try {
    const back = typeof returned === "string" ? await payNowReturn(db, email, policy.id, returned) : undefined;
    view = back === "paid" ? { outcome: "paid" } : await openStripePayNow(db, email, policy.id);
  } catch (error) {
    const failure = toAppError(error);
    if (failure.kind !== "conflict" && failure.kind !== "unavailable") throw error;
    return (
      <PolicyPage page="pay" email={email} title="Pay now">
        <Overdue policy={policy} amountCents={policy.amountDueCents} />
        <p role="alert" className={styles.notice}>
          {failure.message}
        </p>
      </PolicyPage>
    );
  }
  if (view.outcome === "paid") redirect(`${ACCOUNT_PATH}?done=paid`);
  if (view.outcome === "nothing_due") redirect(`${ACCOUNT_PATH}?done=nothing-due`);
  if (view.outcome === "processing")
    return (
      <PolicyPage page="pay" email={email} title="Pay now">
        <Overdue policy={policy} amountCents={policy.amountDueCents} />
        <p role="status" className={styles.notice}>
          Your payment is processing. This page shows it as paid as soon as your bank confirms it; nothing more to do.
        </p>
      </PolicyPage>
    );
  return (
    <PolicyPage page="pay" email={email} title="Pay now" payment={{ processor: "stripe", intentId: view.form.intentId }}>
      <Overdue policy={policy} amountCents={view.amountCents} />
      <StripePayForm action={payNowStripeAction.bind(null, policy.id)} payLabel={`Pay ${formatUsd(view.amountCents)}`} stripe={view.form} />
    </PolicyPage>
  );
}

function Overdue({ policy, amountCents }: { policy: AccountPolicy; amountCents: number }) {
  return (
    <div className={styles.summary}>
      <p className={styles.summaryLine}>
        <span>
          Overdue on policy {policy.policyNumber} ({policy.ownerName})
        </span>
        <span>{formatUsd(amountCents)}</span>
      </p>
    </div>
  );
}
