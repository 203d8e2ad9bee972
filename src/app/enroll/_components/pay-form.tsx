"use client";

import type { FormEvent, Ref } from "react";
import styles from "./enroll.module.css";
import { describedBy, ErrorSummary, Field } from "./form-parts";
import { type FormState, fieldError, keptValue } from "./form-state";
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
  const e = {
    nameOnCard: fieldError(state, "nameOnCard"),
    number: fieldError(state, "number"),
    expiry: fieldError(state, "expiry"),
    cvc: fieldError(state, "cvc"),
    postalCode: fieldError(state, "postalCode"),
  };
  return (
    <>
      {state.status === "error" ? <ErrorSummary ref={summaryRef} message={state.message} fields={state.fields} order={ORDER} /> : null}
      <input type="hidden" name="attempt" value={state.attempt ?? attempt} />
      <Field name="nameOnCard" label="Name on card" error={e.nameOnCard}>
        <input
          id="nameOnCard"
          name="nameOnCard"
          autoComplete="cc-name"
          required
          defaultValue={keptValue(state, "nameOnCard")}
          aria-invalid={e.nameOnCard ? true : undefined}
          aria-describedby={describedBy("nameOnCard", false, e.nameOnCard)}
        />
      </Field>
      <Field name="number" label="Card number" error={e.number}>
        <input
          id="number"
          name="number"
          autoComplete="cc-number"
          inputMode="numeric"
          maxLength={23}
          required
          onInput={groupCardNumber}
          aria-invalid={e.number ? true : undefined}
          aria-describedby={describedBy("number", false, e.number)}
        />
      </Field>
      <div className={styles.row3}>
        <Field name="expiry" label="Expiry date" hint="MM/YY" error={e.expiry}>
          <input
            id="expiry"
            name="expiry"
            autoComplete="cc-exp"
            inputMode="numeric"
            placeholder="MM/YY"
            maxLength={7}
            required
            defaultValue={keptValue(state, "expiry")}
            aria-invalid={e.expiry ? true : undefined}
            aria-describedby={describedBy("expiry", true, e.expiry)}
          />
        </Field>
        <Field name="cvc" label="Security code" hint="3 or 4 digits" error={e.cvc}>
          <input
            id="cvc"
            name="cvc"
            autoComplete="cc-csc"
            inputMode="numeric"
            maxLength={4}
            required
            aria-invalid={e.cvc ? true : undefined}
            aria-describedby={describedBy("cvc", true, e.cvc)}
          />
        </Field>
        <Field name="postalCode" label="ZIP code" error={e.postalCode}>
          <input
            id="postalCode"
            name="postalCode"
            autoComplete="postal-code"
            inputMode="numeric"
            maxLength={10}
            required
            defaultValue={keptValue(state, "postalCode")}
            aria-invalid={e.postalCode ? true : undefined}
            aria-describedby={describedBy("postalCode", false, e.postalCode)}
          />
        </Field>
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
