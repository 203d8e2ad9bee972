"use client";

import type { Ref } from "react";
import type { Disclosure } from "@/features/enrollment/flow/contract";
import styles from "./enroll.module.css";
import { describedBy, ErrorSummary, Field, TextField } from "./form-parts";
import { type FormState, fieldError } from "./form-state";
import { type StepAction, useStepForm } from "./use-step-form";

type Props = {
  action: StepAction;
  values: { firstName: string; lastName: string; email: string; phone: string; birthdate: string };
  disclosures: Disclosure[];
};

const ORDER = [
  { name: "firstName", target: "firstName" },
  { name: "lastName", target: "lastName" },
  { name: "phone", target: "phone" },
  { name: "birthdate", target: "birthdate" },
  { name: "acceptDisclosures", target: "acceptDisclosures" },
];

/** Step 1: the renter's details (pre-filled from the partner) and the disclosures to accept. */
export function DetailsForm({ action, values, disclosures }: Props) {
  const { state, formAction, pending, summaryRef } = useStepForm(action);
  return (
    <form action={formAction} noValidate className={styles.form}>
      <DetailsFields state={state} values={values} disclosures={disclosures} pending={pending} summaryRef={summaryRef} />
    </form>
  );
}

type FieldsProps = Omit<Props, "action"> & { state: FormState; pending: boolean; summaryRef?: Ref<HTMLDivElement> };

/** The form's content for a given state (pure: what the server renders after an error, too). */
export function DetailsFields({ state, values, disclosures, pending, summaryRef }: FieldsProps) {
  const disclosuresError = fieldError(state, "acceptDisclosures");
  const accepted = state.status === "error" ? state.values.acceptDisclosures === "on" : false;
  return (
    <>
      {state.status === "error" ? <ErrorSummary ref={summaryRef} message={state.message} fields={state.fields} order={ORDER} /> : null}
      <div className={styles.row}>
        <TextField name="firstName" label="First name" state={state} initial={values.firstName} input={{ autoComplete: "given-name" }} />
        <TextField name="lastName" label="Last name" state={state} initial={values.lastName} input={{ autoComplete: "family-name" }} />
      </div>
      <Field name="email" label="Email" hint="From your leasing portal; it can't be changed here.">
        <input id="email" name="email" type="email" autoComplete="email" readOnly value={values.email} aria-describedby="email-hint" />
      </Field>
      <div className={styles.row}>
        <TextField
          name="phone"
          label="Phone"
          hint="10 digits, US number"
          state={state}
          initial={values.phone}
          input={{ type: "tel", inputMode: "numeric", autoComplete: "tel-national" }}
        />
        <TextField name="birthdate" label="Date of birth" state={state} initial={values.birthdate} input={{ type: "date", autoComplete: "bday" }} />
      </div>
      <section aria-labelledby="disclosures-title" className={styles.disclosures}>
        <h2 id="disclosures-title" className={styles.sectionTitle}>
          Disclosures
        </h2>
        {disclosures.map((d) => (
          <div key={d.id} className={styles.disclosure}>
            <h3>{d.title}</h3>
            <p>{d.body}</p>
          </div>
        ))}
      </section>
      <div className={styles.check} data-invalid={disclosuresError ? "true" : undefined}>
        <input
          id="acceptDisclosures"
          name="acceptDisclosures"
          type="checkbox"
          required
          defaultChecked={accepted}
          aria-invalid={disclosuresError ? true : undefined}
          aria-describedby={describedBy("acceptDisclosures", false, disclosuresError)}
        />
        <label htmlFor="acceptDisclosures">I have read and accept the disclosures</label>
        {disclosuresError ? (
          <p id="acceptDisclosures-error" className={styles.fieldError}>
            {disclosuresError}
          </p>
        ) : null}
      </div>
      <button type="submit" className={styles.primary} disabled={pending} aria-busy={pending || undefined}>
        Continue
      </button>
    </>
  );
}
