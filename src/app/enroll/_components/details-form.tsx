"use client";

import type { Ref } from "react";
import type { Disclosure } from "@/features/enrollment/flow/contract";
import styles from "./enroll.module.css";
import { describedBy, ErrorSummary, Field } from "./form-parts";
import { type FormState, fieldError, keptValue } from "./form-state";
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
  const errors = {
    firstName: fieldError(state, "firstName"),
    lastName: fieldError(state, "lastName"),
    phone: fieldError(state, "phone"),
    birthdate: fieldError(state, "birthdate"),
    acceptDisclosures: fieldError(state, "acceptDisclosures"),
  };
  const accepted = state.status === "error" ? state.values.acceptDisclosures === "on" : false;
  return (
    <>
      {state.status === "error" ? <ErrorSummary ref={summaryRef} message={state.message} fields={state.fields} order={ORDER} /> : null}
      <div className={styles.row}>
        <Field name="firstName" label="First name" error={errors.firstName}>
          <input
            id="firstName"
            name="firstName"
            autoComplete="given-name"
            required
            defaultValue={keptValue(state, "firstName", values.firstName)}
            aria-invalid={errors.firstName ? true : undefined}
            aria-describedby={describedBy("firstName", false, errors.firstName)}
          />
        </Field>
        <Field name="lastName" label="Last name" error={errors.lastName}>
          <input
            id="lastName"
            name="lastName"
            autoComplete="family-name"
            required
            defaultValue={keptValue(state, "lastName", values.lastName)}
            aria-invalid={errors.lastName ? true : undefined}
            aria-describedby={describedBy("lastName", false, errors.lastName)}
          />
        </Field>
      </div>
      <Field name="email" label="Email" hint="From your leasing portal; it can't be changed here.">
        <input id="email" name="email" type="email" autoComplete="email" readOnly value={values.email} aria-describedby="email-hint" />
      </Field>
      <div className={styles.row}>
        <Field name="phone" label="Phone" hint="10 digits, US number" error={errors.phone}>
          <input
            id="phone"
            name="phone"
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            required
            defaultValue={keptValue(state, "phone", values.phone)}
            aria-invalid={errors.phone ? true : undefined}
            aria-describedby={describedBy("phone", true, errors.phone)}
          />
        </Field>
        <Field name="birthdate" label="Date of birth" error={errors.birthdate}>
          <input
            id="birthdate"
            name="birthdate"
            type="date"
            autoComplete="bday"
            required
            defaultValue={keptValue(state, "birthdate", values.birthdate)}
            aria-invalid={errors.birthdate ? true : undefined}
            aria-describedby={describedBy("birthdate", false, errors.birthdate)}
          />
        </Field>
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
      <div className={styles.check} data-invalid={errors.acceptDisclosures ? "true" : undefined}>
        <input
          id="acceptDisclosures"
          name="acceptDisclosures"
          type="checkbox"
          required
          defaultChecked={accepted}
          aria-invalid={errors.acceptDisclosures ? true : undefined}
          aria-describedby={describedBy("acceptDisclosures", false, errors.acceptDisclosures)}
        />
        <label htmlFor="acceptDisclosures">I have read and accept the disclosures</label>
        {errors.acceptDisclosures ? (
          <p id="acceptDisclosures-error" className={styles.fieldError}>
            {errors.acceptDisclosures}
          </p>
        ) : null}
      </div>
      <button type="submit" className={styles.primary} disabled={pending} aria-busy={pending || undefined}>
        Continue
      </button>
    </>
  );
}
