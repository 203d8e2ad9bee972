"use client";

import type { FormEvent, Ref } from "react";
import styles from "./enroll.module.css";
import { ErrorSummary, TextField } from "./form-parts";
import type { FormState } from "./form-state";
import { type StepAction, useStepForm } from "./use-step-form";

type Props = {
  action: StepAction;
  /** "Pay $175.00": the amount charged now. */
  payLabel: string;
  /** A fresh nonce per rendered form: a double submit of the same form is one charge. */
  attempt: string;
};

const ORDER = [
  { name: "nameOnCard", target: "nameOnCard" },
  { name: "number", target: "number" },
  { name: "expiry", target: "expiry" },
  { name: "cvc", target: "cvc" },
  { name: "postalCode", target: "postalCode" },
];

/** Step 4: the card form. After a decline the card number and code are typed again; the rest stays. */
export function PayForm({ action, payLabel, attempt }: Props) {
  const { state, formAction, pending, summaryRef } = useStepForm(action);
  return (
    <form action={formAction} noValidate className={styles.form}>
      <PayFields state={state} payLabel={payLabel} attempt={attempt} pending={pending} summaryRef={summaryRef} />
    </form>
  );
}

type FieldsProps = Omit<Props, "action"> & { state: FormState; pending: boolean; summaryRef?: Ref<HTMLDivElement> };

/** The form's content for a given state. */
export function PayFields({ state, payLabel, attempt, pending, summaryRef }: FieldsProps) {
  return (
    <>
      {state.status === "error" ? <ErrorSummary ref={summaryRef} message={state.message} fields={state.fields} order={ORDER} /> : null}
      <input type="hidden" name="attempt" value={state.attempt ?? attempt} />
      <TextField name="nameOnCard" label="Name on card" state={state} initial="" input={{ autoComplete: "cc-name" }} />
      <TextField
        name="number"
        label="Card number"
        state={state}
        initial={false}
        input={{ autoComplete: "cc-number", inputMode: "numeric", maxLength: 23, onInput: groupCardNumber }}
      />
      <div className={styles.row3}>
        <TextField
          name="expiry"
          label="Expiry date"
          hint="MM/YY"
          state={state}
          initial=""
          input={{ autoComplete: "cc-exp", inputMode: "numeric", placeholder: "MM/YY", maxLength: 7 }}
        />
        <TextField
          name="cvc"
          label="Security code"
          hint="3 or 4 digits"
          state={state}
          initial={false}
          input={{ autoComplete: "cc-csc", inputMode: "numeric", maxLength: 4 }}
        />
        <TextField name="postalCode" label="ZIP code" state={state} initial="" input={{ autoComplete: "postal-code", inputMode: "numeric", maxLength: 10 }} />
      </div>
      <button type="submit" className={styles.primary} disabled={pending}>
        {payLabel}
      </button>
    </>
  );
}

/** Shows the card number in groups of four as it is typed at the end (editing in the middle is left alone). */
function groupCardNumber(event: FormEvent<HTMLInputElement>) {
  const input = event.currentTarget;
  if (input.selectionStart !== input.value.length) return;
  const grouped = input.value
    .replace(/\D/g, "")
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");
  if (grouped !== input.value) input.value = grouped;
}
