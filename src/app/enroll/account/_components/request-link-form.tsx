"use client";

import { useActionState, useEffect, useRef } from "react";
import { ACCOUNT_MESSAGES } from "@/features/account/messages";
import styles from "../../_components/enroll.module.css";
import { ErrorSummary, TextField } from "../../_components/form-parts";
import { IDLE } from "../../_components/form-state";
import type { RequestLinkState } from "../actions";

type Props = { action: (previous: RequestLinkState, form: FormData) => Promise<RequestLinkState> };

/**
 * The renter's email → a sign-in link (decisions §19). The answer is the same whatever the email
 * (a `role="status"` region announces it); a mistake or the throttle is an alert that takes focus.
 */
export function RequestLinkForm({ action }: Props) {
  const [state, formAction, pending] = useActionState(action, IDLE as RequestLinkState);
  const summaryRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state.status === "error") summaryRef.current?.focus();
  }, [state]);
  const formState = state.status === "sent" ? IDLE : state;
  return (
    <form action={formAction} noValidate className={styles.form}>
      {state.status === "error" ? (
        <ErrorSummary ref={summaryRef} message={state.message} fields={state.fields} order={[{ name: "email", target: "email" }]} />
      ) : null}
      <TextField
        name="email"
        label="Email"
        hint="The address you enrolled with"
        state={formState}
        initial=""
        input={{ type: "email", autoComplete: "email" }}
      />
      <button type="submit" className={styles.primary} disabled={pending}>
        Email me a sign-in link
      </button>
      <p role="status" className={styles.lead}>
        {state.status === "sent" ? ACCOUNT_MESSAGES.linkSent : ""}
      </p>
    </form>
  );
}
