"use client";

import styles from "./enroll.module.css";
import { type StepAction, useStepForm } from "./use-step-form";

/** From pay back to choose (before payment only). */
export function ChangeChoice({ action }: { action: StepAction }) {
  const { state, formAction, pending, summaryRef } = useStepForm(action);
  return (
    <form action={formAction} className={styles.secondaryForm}>
      {state.status === "error" ? (
        <div role="alert" tabIndex={-1} ref={summaryRef} className={styles.errorSummary}>
          <p className={styles.errorTitle}>{state.message}</p>
        </div>
      ) : null}
      <button type="submit" className={styles.secondary} disabled={pending}>
        Change option
      </button>
    </form>
  );
}
