"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
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
  useTRPC,
} from "../../../_ui";
import { centsOf, money } from "../format";
import styles from "./policy.module.css";

type Policy = ConsoleOutputs["policies"]["detail"];
type Revision = Omit<ConsoleInputs["policies"]["revise"], "id">;

function useInvalidatePolicy() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.policies.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.audit.pathKey() }),
    ]);
}

/**
 * Revise (docs/decisions.md, "Policies: revisions and cancellation"): only the values that differ from the policy are sent. A revision emits
 * `policy.updated` and rebuilds the documents; an end date before today cancels the policy.
 */
export function ReviseForm({ policy }: { policy: Policy }) {
  const trpc = useTRPC();
  const invalidate = useInvalidatePolicy();
  const [done, setDone] = useState(false);
  const [amountError, setAmountError] = useState<string>();
  const revise = useMutation(trpc.policies.revise.mutationOptions({ onSuccess: () => invalidate().then(() => setDone(true)) }));
  const errors = fieldErrorsOf(revise.error);
  const shown = new Set(["coverage_amount_cents", "coverage_start_date", "coverage_end_date", "unit", "note"]);
  const general = revise.error && !Object.keys(errors).some((field) => shown.has(field)) ? errorMessage(revise.error) : null;
  const unitError = errors.unit?.join("; ") ?? errors.unit_id?.join("; ");
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDone(false);
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? "").trim();
    const cents = centsOf(text("amount"));
    if (cents === undefined) {
      setAmountError("Enter an amount in dollars, like 1800 or 1800.50.");
      return;
    }
    setAmountError(undefined);
    const input: Revision = {};
    if (cents !== policy.coverage_amount_cents) input.coverage_amount_cents = cents;
    if (text("start") !== policy.coverage_start_date) input.coverage_start_date = text("start");
    if (text("end") !== policy.coverage_end_date) input.coverage_end_date = text("end");
    const unit = Number(text("unit"));
    if (unit && unit !== policy.unit_id) input.unit_id = unit;
    if (text("note")) input.note = text("note");
    revise.mutate({ id: policy.id, ...input });
  };
  const max = policy.owner_max_coverage_amount_cents;
  return (
    <form className={styles.form} onSubmit={submit} aria-labelledby="revise-title" noValidate>
      <h2 id="revise-title">Revise</h2>
      <Field
        label="Coverage amount (USD)"
        hint={max === null ? undefined : `At most ${money(max)} (the owner's maximum).`}
        error={amountError ?? errors.coverage_amount_cents?.join("; ")}
      >
        {(control) => (
          <Input
            {...control}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            defaultValue={(policy.coverage_amount_cents / 100).toFixed(2)}
            maxLength={20}
          />
        )}
      </Field>
      <div className={styles.dates}>
        <Field label="Coverage start" error={errors.coverage_start_date?.join("; ")}>
          {(control) => <Input {...control} name="start" type="date" defaultValue={policy.coverage_start_date} required />}
        </Field>
        <Field label="Coverage end" hint="An end before today ends the coverage early: the policy is canceled." error={errors.coverage_end_date?.join("; ")}>
          {(control) => <Input {...control} name="end" type="date" defaultValue={policy.coverage_end_date} required />}
        </Field>
      </div>
      <div>
        <Select
          label="Unit (within the building)"
          name="unit"
          defaultValue={String(policy.unit_id)}
          options={policy.building_units.map((u) => ({ value: String(u.id), label: u.external_id ? `${u.name} (${u.external_id})` : u.name }))}
          error={unitError}
        />
      </div>
      <Field label="Note (internal)" hint="Kept with the revision; partners never see it." error={errors.note?.join("; ")}>
        {(control) => <Input {...control} name="note" maxLength={500} autoComplete="off" />}
      </Field>
      <FormError message={general} className={styles.fieldError} />
      {done && !revise.isPending && <output>Policy revised. The documents are being rebuilt.</output>}
      <SubmitButton pending={revise.isPending}>Save revision</SubmitButton>
    </form>
  );
}

/** Cancel, confirmed first, with an internal reason (spec: `policy.canceled` carries none). */
export function CancelPolicy({ policy }: { policy: Policy }) {
  const trpc = useTRPC();
  const invalidate = useInvalidatePolicy();
  const [reason, setReason] = useState("");
  const cancel = useMutation(trpc.policies.cancel.mutationOptions({ onSuccess: () => invalidate() }));
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
