"use client";
import { useState } from "react";
import { Controller } from "react-hook-form";
import { policyReviseInput } from "@/features/policies/console/inputs";
import {
  Button,
  ConfirmDialog,
  type ConsoleInputs,
  type ConsoleOutputs,
  errorMessage,
  Field,
  FormError,
  fieldErrorsOf,
  Input,
  Select,
  SubmitButton,
  useConsoleForm,
  useConsoleMutation,
  useTRPC,
} from "../../../_ui";
import { centsOf, money } from "../format";
import styles from "./policy.module.css";

type Policy = ConsoleOutputs["policies"]["detail"];
type Revision = Omit<ConsoleInputs["policies"]["revise"], "id">;

const TYPED_AMOUNT = "Enter an amount in dollars, like 1800 or 1800.50.";

/** The amount as typed: cents, or the text itself when it is not dollars (refused by `precheck`). */
const amountOf = (typed: unknown) => centsOf(String(typed ?? "").trim()) ?? String(typed);

// The domain names a unit correction `unit` (by id or by external id).
const ALIASES = { unit: "unit_id" };

/**
 * Revise (docs/decisions.md, "Policies: revisions and cancellation"): only the values that differ from the policy are sent. A revision emits
 * `policy.updated` and rebuilds the documents; an end date before today cancels the policy.
 */
export function ReviseForm({ policy }: { policy: Policy }) {
  const trpc = useTRPC();
  const revise = useConsoleMutation(trpc.policies.revise.mutationOptions(), { invalidates: [trpc.policies, trpc.webhooks] });
  const { register, control, onSubmit, errorOf, general, done, pending } = useConsoleForm({
    schema: policyReviseInput,
    // The amount is read from the dollars shown in its input (its `setValueAs`).
    defaultValues: {
      id: policy.id,
      coverage_amount_cents: undefined,
      coverage_start_date: policy.coverage_start_date,
      coverage_end_date: policy.coverage_end_date,
      unit_id: policy.unit_id,
      note: "",
    },
    fields: ["coverage_amount_cents", "coverage_start_date", "coverage_end_date", "unit_id", "note"],
    aliases: ALIASES,
    precheck: (values): Record<string, string> => (typeof values.coverage_amount_cents === "string" ? { coverage_amount_cents: TYPED_AMOUNT } : {}),
    toInput: (values) => {
      const input: Revision = {};
      if (values.coverage_amount_cents !== policy.coverage_amount_cents) input.coverage_amount_cents = values.coverage_amount_cents;
      if (values.coverage_start_date !== policy.coverage_start_date) input.coverage_start_date = values.coverage_start_date;
      if (values.coverage_end_date !== policy.coverage_end_date) input.coverage_end_date = values.coverage_end_date;
      if (values.unit_id && values.unit_id !== policy.unit_id) input.unit_id = values.unit_id;
      if (values.note) input.note = values.note;
      return { id: policy.id, ...input };
    },
    mutation: revise,
  });
  const max = policy.owner_max_coverage_amount_cents;
  return (
    <form className={styles.form} onSubmit={onSubmit} aria-labelledby="revise-title" noValidate>
      <h2 id="revise-title">Revise</h2>
      <Field
        label="Coverage amount (USD)"
        hint={max === null ? undefined : `At most ${money(max)} (the owner's maximum).`}
        error={errorOf("coverage_amount_cents")}
      >
        {(control) => (
          <Input
            {...control}
            {...register("coverage_amount_cents", { setValueAs: amountOf })}
            inputMode="decimal"
            autoComplete="off"
            defaultValue={(policy.coverage_amount_cents / 100).toFixed(2)}
            maxLength={20}
          />
        )}
      </Field>
      <div className={styles.dates}>
        <Field label="Coverage start" error={errorOf("coverage_start_date")}>
          {(control) => <Input {...control} {...register("coverage_start_date")} type="date" required />}
        </Field>
        <Field label="Coverage end" hint="An end before today ends the coverage early: the policy is canceled." error={errorOf("coverage_end_date")}>
          {(control) => <Input {...control} {...register("coverage_end_date")} type="date" required />}
        </Field>
      </div>
      <div>
        <Controller
          control={control}
          name="unit_id"
          render={({ field }) => (
            <Select
              label="Unit (within the building)"
              name={field.name}
              value={String(field.value)}
              onValueChange={(value) => field.onChange(Number(value))}
              options={policy.building_units.map((u) => ({ value: String(u.id), label: u.external_id ? `${u.name} (${u.external_id})` : u.name }))}
              error={errorOf("unit_id")}
            />
          )}
        />
      </div>
      <Field label="Note (internal)" hint="Kept with the revision; partners never see it." error={errorOf("note")}>
        {(control) => <Input {...control} {...register("note")} maxLength={500} autoComplete="off" />}
      </Field>
      <FormError message={general} className={styles.fieldError} />
      {done && !pending && <output>Policy revised. The documents are being rebuilt.</output>}
      <SubmitButton pending={pending}>Save revision</SubmitButton>
    </form>
  );
}

/** Cancel, confirmed first, with an internal reason (spec: `policy.canceled` carries none). */
export function CancelPolicy({ policy }: { policy: Policy }) {
  const trpc = useTRPC();
  const [reason, setReason] = useState("");
  const cancel = useConsoleMutation(trpc.policies.cancel.mutationOptions(), { invalidates: [trpc.policies, trpc.webhooks] });
  const reasonError = fieldErrorsOf(cancel.error).reason?.join("; ");
  return (
    <div className={styles.form}>
      <h2>Cancel</h2>
      <p className="muted">Partners receive policy.canceled, without the reason. The documents are kept as they are.</p>
      <ConfirmDialog
        trigger={<Button variant="danger">Cancel the policy…</Button>}
        title={`Cancel policy ${policy.policy_number}?`}
        description="This cannot be undone: a canceled policy can no longer be revised."
        actionLabel="Cancel the policy"
        dismissLabel="Keep the policy"
        danger
        pending={cancel.isPending}
        error={cancel.error && !reasonError ? errorMessage(cancel.error) : undefined}
        onConfirm={() => cancel.mutateAsync({ id: policy.id, reason: reason.trim() || undefined })}
      >
        <Field label="Reason (internal)" hint="Shown in the status history; never sent to partners." error={reasonError}>
          {(control) => <Input {...control} value={reason} onChange={(event) => setReason(event.target.value)} maxLength={500} autoComplete="off" />}
        </Field>
      </ConfirmDialog>
    </div>
  );
}
