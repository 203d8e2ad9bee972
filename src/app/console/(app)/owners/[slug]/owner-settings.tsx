"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { type ConsoleOutputs, errorMessage, Field, FormError, fieldErrorsOf, Input, SubmitButton, useTRPC } from "../../../_ui";

type Detail = ConsoleOutputs["owners"]["detail"];

/** Dollars as typed ("2,500.00", "2500") to cents; undefined when it is not an amount. */
function centsOf(typed: string): number | null | undefined {
  const text = typed.replace(/[$,\s]/g, "");
  if (text === "") return null;
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return undefined;
  return Math.round(Number(text) * 100);
}

/**
 * The purchase flow and the coverage ceiling, written by the partner upsert's own code: the flow
 * opens only once the roster is loaded, and a change re-evaluates the owner's prospects.
 */
export function OwnerSettingsForm({ owner }: { owner: Detail }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [done, setDone] = useState(false);
  const [typedError, setTypedError] = useState<string | null>(null);
  const save = useMutation(
    trpc.owners.updateSettings.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.owners.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.audit.pathKey() }),
        ]).then(() => setDone(true)),
    }),
  );
  const errors = fieldErrorsOf(save.error);
  const general = save.error && !Object.keys(errors).length ? errorMessage(save.error) : null;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDone(false);
    const data = new FormData(event.currentTarget);
    const cents = centsOf(String(data.get("max_coverage") ?? ""));
    if (cents === undefined) {
      setTypedError("Enter an amount in dollars, like 2500 or 2,500.00, or leave it empty for no ceiling");
      return;
    }
    setTypedError(null);
    save.mutate({ slug: owner.owner_slug, purchase_flow_enabled: data.get("purchase_flow_enabled") === "on", max_coverage_amount_cents: cents });
  };
  return (
    <form className="access-form" onSubmit={submit} aria-labelledby="owner-settings-title" noValidate>
      <h2 id="owner-settings-title">Purchase settings</h2>
      <p className="hint">A change re-evaluates this owner's prospects in the background.</p>
      <label className="checkbox">
        <input type="checkbox" name="purchase_flow_enabled" defaultChecked={owner.purchase_flow_enabled} aria-describedby="purchase-flow-error" />
        Purchase flow enabled
      </label>
      {errors.purchase_flow_enabled && (
        <small id="purchase-flow-error" className="error">
          Purchase flow {errors.purchase_flow_enabled.join("; ")}
        </small>
      )}
      <Field label="Coverage ceiling (dollars)" hint="Empty for no ceiling." error={typedError ?? errors.max_coverage_amount_cents?.join("; ")}>
        {(control) => (
          <Input
            {...control}
            name="max_coverage"
            inputMode="decimal"
            defaultValue={owner.max_coverage_amount_cents === null ? "" : (owner.max_coverage_amount_cents / 100).toFixed(2)}
            maxLength={20}
          />
        )}
      </Field>
      <FormError message={general} />
      {done && <output>Settings saved.</output>}
      <SubmitButton pending={save.isPending}>Save settings</SubmitButton>
    </form>
  );
}
