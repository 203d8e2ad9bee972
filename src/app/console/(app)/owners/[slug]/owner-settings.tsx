"use client";
import { ownerSettingsInput } from "@/features/owners/console/settings.inputs";
import { type ConsoleOutputs, Field, FormError, Input, SubmitButton, useConsoleForm, useConsoleMutation, useTRPC } from "../../../_ui";

type Detail = ConsoleOutputs["owners"]["detail"];

/** Dollars as typed ("2,500.00", "2500") to cents; undefined when it is not an amount. */
function centsOf(typed: string): number | null | undefined {
  const text = typed.replace(/[$,\s]/g, "");
  if (text === "") return null;
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return undefined;
  return Math.round(Number(text) * 100);
}

const TYPED_AMOUNT = "Enter an amount in dollars, like 2500 or 2,500.00, or leave it empty for no ceiling";

/** The ceiling as typed: cents, null for none, or the text itself when it is not an amount (refused by `precheck`). */
const ceilingOf = (typed: unknown) => centsOf(String(typed ?? "")) ?? String(typed);

/**
 * The purchase flow and the coverage ceiling, written by the partner upsert's own code: the flow
 * opens only once the roster is loaded, and a change re-evaluates the owner's prospects.
 */
export function OwnerSettingsForm({ owner }: { owner: Detail }) {
  const trpc = useTRPC();
  const save = useConsoleMutation(trpc.owners.updateSettings.mutationOptions(), { invalidates: [trpc.owners] });
  const { register, onSubmit, errorOf, general, done, pending } = useConsoleForm({
    schema: ownerSettingsInput,
    // The ceiling is read from the dollars shown in its input (its `setValueAs`).
    defaultValues: { slug: owner.owner_slug, purchase_flow_enabled: owner.purchase_flow_enabled, max_coverage_amount_cents: undefined },
    precheck: (values): Record<string, string> => (typeof values.max_coverage_amount_cents === "string" ? { max_coverage_amount_cents: TYPED_AMOUNT } : {}),
    mutation: save,
  });
  const flowError = errorOf("purchase_flow_enabled");
  return (
    <form className="access-form" onSubmit={onSubmit} aria-labelledby="owner-settings-title" noValidate>
      <h2 id="owner-settings-title">Purchase settings</h2>
      <p className="hint">A change re-evaluates this owner's prospects in the background.</p>
      <label className="checkbox">
        <input type="checkbox" {...register("purchase_flow_enabled")} aria-describedby="purchase-flow-error" />
        Purchase flow enabled
      </label>
      {flowError && (
        <small id="purchase-flow-error" className="error">
          Purchase flow {flowError}
        </small>
      )}
      <Field label="Coverage ceiling (dollars)" hint="Empty for no ceiling." error={errorOf("max_coverage_amount_cents")}>
        {(control) => (
          <Input
            {...control}
            {...register("max_coverage_amount_cents", { setValueAs: ceilingOf })}
            inputMode="decimal"
            defaultValue={owner.max_coverage_amount_cents === null ? "" : (owner.max_coverage_amount_cents / 100).toFixed(2)}
            maxLength={20}
          />
        )}
      </Field>
      <FormError message={general} />
      {done && <output>Settings saved.</output>}
      <SubmitButton pending={pending}>Save settings</SubmitButton>
    </form>
  );
}
