"use client";

import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { type FormEvent, startTransition, useEffect, useState } from "react";
import type { StripePayment } from "@/features/enrollment/flow/contract";
import styles from "./enroll.module.css";
import { ErrorSummary } from "./form-parts";
import type { StepAction } from "./use-step-form";
import { useStepForm } from "./use-step-form";

type Props = { action: StepAction; payLabel: string; stripe: StripePayment };

/** Shown when Stripe.js does not load (blocked, offline): nothing was sent, nothing charged. */
export const STRIPE_LOAD_FAILED = "Card payment couldn't load. Nothing was charged. Check your connection and reload this page.";

let loading: { key: string; promise: Promise<Stripe | null> } | undefined;

/** `@stripe/stripe-js` injects Stripe.js from js.stripe.com once (decisions §18: never bundled or self-hosted). */
function stripeJs(publishableKey: string): Promise<Stripe | null> {
  if (loading?.key !== publishableKey) loading = { key: publishableKey, promise: loadStripe(publishableKey) };
  return loading.promise;
}

/**
 * Step 4 through Stripe (decisions §18): the Payment Element collects the card inside Stripe's
 * frames; on submit it makes a ConfirmationToken, which the server action confirms on the server
 * (card data never reaches this server). 3-D Secure: the action sends the browser to the bank's page,
 * which returns to the flow link.
 */
export function StripePayForm({ action, payLabel, stripe }: Props) {
  const [loaded, setLoaded] = useState<Stripe | null | "failed">(null);
  useEffect(() => {
    let live = true;
    stripeJs(stripe.publishableKey).then(
      (value) => live && setLoaded(value ?? "failed"),
      () => live && setLoaded("failed"),
    );
    return () => {
      live = false;
    };
  }, [stripe.publishableKey]);
  if (loaded === "failed") {
    return (
      <p role="alert" className={styles.notice} data-stripe-load="failed">
        {STRIPE_LOAD_FAILED}
      </p>
    );
  }
  if (!loaded) {
    return (
      <p role="status" className={styles.muted} data-stripe-load="loading">
        Loading the secure card form…
      </p>
    );
  }
  return (
    <Elements stripe={loaded} options={{ clientSecret: stripe.clientSecret }}>
      <CardForm action={action} payLabel={payLabel} stripe={stripe} />
    </Elements>
  );
}

function CardForm({ action, payLabel, stripe: payment }: Props) {
  const stripe = useStripe();
  const elements = useElements();
  const { state, formAction, pending, summaryRef } = useStepForm(action);
  const [clientError, setClientError] = useState<string | undefined>(payment.lastError);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements || busy || pending) return;
    setBusy(true);
    setClientError(undefined);
    try {
      const { error: invalid } = await elements.submit();
      if (invalid) return setClientError(invalid.message);
      const { error, confirmationToken } = await stripe.createConfirmationToken({ elements, params: { return_url: payment.returnUrl } });
      if (error || !confirmationToken) return setClientError(error?.message ?? STRIPE_LOAD_FAILED);
      const form = new FormData();
      form.set("token", confirmationToken.id);
      startTransition(() => formAction(form));
    } finally {
      setBusy(false);
    }
  }

  const message = clientError ?? (state.status === "error" ? state.message : undefined);
  return (
    <form onSubmit={submit} noValidate className={styles.form}>
      {message ? <ErrorSummary ref={summaryRef} message={message} fields={{}} order={[]} /> : null}
      <PaymentElement options={{ layout: "tabs" }} />
      <button type="submit" className={styles.primary} disabled={!stripe || busy || pending}>
        {payLabel}
      </button>
    </form>
  );
}
