"use client";
import { buildingAddressInput } from "@/features/roster/console/actions.inputs";
import { Button, ConfirmDialog, errorMessage, Field, FormError, Input, SubmitButton, useConsoleForm, useConsoleMutation, useTRPC } from "../../../_ui";

type Address = { line_one: string; city: string; state: string; zip: string };
type FieldName = keyof Address;

const FIELDS: [FieldName, string, string][] = [
  ["line_one", "Street line", "Stored exactly as typed."],
  ["city", "City", ""],
  ["state", "State", "Two-letter code or full name; stored as the code."],
  ["zip", "ZIP", "ZIP+4 is stored as its five digits."],
];

// The domain names a refused part of the address by itself (`state`), the schema by its path.
const ALIASES = Object.fromEntries(FIELDS.map(([name]) => [name, `address.${name}`]));

/** decisions §4 `building correct-address`: correcting locks the address against later derivation. */
export function CorrectAddressForm({ id, address }: { id: number; address: Address }) {
  const trpc = useTRPC();
  const correct = useConsoleMutation(trpc.buildings.correctAddress.mutationOptions(), { invalidates: [trpc.buildings] });
  const { register, onSubmit, errorOf, general, done, pending } = useConsoleForm({
    schema: buildingAddressInput,
    defaultValues: { id, address },
    fields: Object.values(ALIASES),
    aliases: ALIASES,
    mutation: correct,
  });
  return (
    <form className="correct-address" onSubmit={onSubmit} aria-labelledby="correct-address-title" noValidate>
      <h2 id="correct-address-title">Correct the address</h2>
      <p className="hint">A correction locks the address: later unit loads and property refreshes that disagree are recorded below, not applied.</p>
      {FIELDS.map(([name, label, hint]) => (
        <Field key={name} label={label} hint={hint || undefined} error={errorOf(`address.${name}`)}>
          {(control) => <Input {...control} {...register(`address.${name}`)} maxLength={name === "line_one" ? 200 : 100} />}
        </Field>
      ))}
      <FormError message={general} />
      {done && <output>Address corrected and locked.</output>}
      <SubmitButton pending={pending}>Correct and lock the address</SubmitButton>
    </form>
  );
}

/** Activate or deactivate, confirmed first; the building's prospects are re-evaluated in the background. */
export function ActiveToggle({ id, name, active }: { id: number; name: string; active: boolean }) {
  const trpc = useTRPC();
  const toggle = useConsoleMutation(trpc.buildings.setActive.mutationOptions(), { invalidates: [trpc.buildings] });
  const verb = active ? "Deactivate" : "Activate";
  return (
    <ConfirmDialog
      trigger={<Button variant={active ? "danger" : "primary"}>{verb}</Button>}
      title={`${verb} ${name}?`}
      description="The building's prospects are re-evaluated in the background."
      actionLabel={verb}
      danger={active}
      pending={toggle.isPending}
      error={toggle.error ? errorMessage(toggle.error) : undefined}
      onConfirm={() => toggle.mutateAsync({ id, active: !active })}
    />
  );
}
