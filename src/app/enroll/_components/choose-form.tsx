"use client";

import type { Ref } from "react";
import styles from "./enroll.module.css";
import { ErrorSummary } from "./form-parts";
import { type FormState, fieldError, keptValue } from "./form-state";
import type { OptionChoice } from "./format";
import { type StepAction, useStepForm } from "./use-step-form";

type Props = { action: StepAction; choices: OptionChoice[]; preselected?: string };

const ORDER = [
  { name: "productType", target: "choice-0" },
  { name: "cadence", target: "choice-0" },
];

/** Step 3: one radio per offered product and cadence, each described by its price. */
export function ChooseForm({ action, choices, preselected }: Props) {
  const { state, formAction, pending, summaryRef } = useStepForm(action);
  return (
    <form action={formAction} noValidate className={styles.form}>
      <ChooseFields state={state} choices={choices} preselected={preselected} pending={pending} summaryRef={summaryRef} />
    </form>
  );
}

type FieldsProps = Omit<Props, "action"> & { state: FormState; pending: boolean; summaryRef?: Ref<HTMLDivElement> };

/** The form's content for a given state. */
export function ChooseFields({ state, choices, preselected, pending, summaryRef }: FieldsProps) {
  const error = fieldError(state, "productType", "cadence", "choice");
  const checked = keptValue(state, "choice", preselected ?? "");
  return (
    <>
      {state.status === "error" ? <ErrorSummary ref={summaryRef} message={state.message} fields={state.fields} order={ORDER} /> : null}
      <fieldset className={styles.options} aria-describedby={error ? "choice-error" : undefined}>
        <legend className={styles.sectionTitle}>Your options</legend>
        {choices.map((c, i) => (
          <div key={c.value} className={styles.option}>
            <input
              type="radio"
              id={`choice-${i}`}
              name="choice"
              value={c.value}
              required
              defaultChecked={checked === c.value}
              aria-describedby={`choice-${i}-description`}
            />
            <label htmlFor={`choice-${i}`} className={styles.optionLabel}>
              {c.label}
            </label>
            <p id={`choice-${i}-description`} className={styles.optionDescription}>
              {c.description}
            </p>
          </div>
        ))}
        {error ? (
          <p id="choice-error" className={styles.fieldError}>
            {error}
          </p>
        ) : null}
      </fieldset>
      <button type="submit" className={styles.primary} disabled={pending}>
        Continue to payment
      </button>
    </>
  );
}
