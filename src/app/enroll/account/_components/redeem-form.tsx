"use client";

import styles from "../../_components/enroll.module.css";
import { ErrorSummary } from "../../_components/form-parts";
import { type StepAction, useStepForm } from "../../_components/use-step-form";

/** The sign-in link's one button: a press (not the visit) uses the link, so a mail scanner's visit spends nothing. */
export function RedeemForm({ action }: { action: StepAction }) {
  const { state, formAction, pending, summaryRef } = useStepForm(action);
  return (
    <form action={formAction} className={styles.form}>
      {state.status === "error" ? <ErrorSummary ref={summaryRef} message={state.message} fields={{}} order={[]} /> : null}
      <button type="submit" className={styles.primary} disabled={pending}>
        Sign in
      </button>
    </form>
  );
}
