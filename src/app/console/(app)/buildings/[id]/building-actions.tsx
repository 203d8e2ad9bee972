"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Button, ConfirmDialog, errorMessage, Field, FormError, fieldErrorsOf, Input, SubmitButton, useTRPC } from "../../../_ui";

type Address = { line_one: string; city: string; state: string; zip: string };
type FieldName = keyof Address;

const FIELDS: [FieldName, string, string][] = [
  ["line_one", "Street line", "Stored exactly as typed."],
  ["city", "City", ""],
  ["state", "State", "Two-letter code or full name; stored as the code."],
  ["zip", "ZIP", "ZIP+4 is stored as its five digits."],
];

function useInvalidateBuilding() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: trpc.buildings.pathKey() }), queryClient.invalidateQueries({ queryKey: trpc.audit.pathKey() })]);
}

/** decisions §4 `building correct-address`: correcting locks the address against later derivation. */
export function CorrectAddressForm({ id, address }: { id: number; address: Address }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateBuilding();
  const [done, setDone] = useState(false);
  const correct = useMutation(trpc.buildings.correctAddress.mutationOptions({ onSuccess: () => invalidate().then(() => setDone(true)) }));
  const errors = fieldErrorsOf(correct.error);
  const general = correct.error && !Object.keys(errors).length ? errorMessage(correct.error) : null;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDone(false);
    const data = new FormData(event.currentTarget);
    const value = (name: FieldName) => String(data.get(name) ?? "");
    correct.mutate({ id, address: { line_one: value("line_one"), city: value("city"), state: value("state"), zip: value("zip") } });
  };
  return (
    <form className="correct-address" onSubmit={submit} aria-labelledby="correct-address-title" noValidate>
      <h2 id="correct-address-title">Correct the address</h2>
      <p className="hint">A correction locks the address: later unit loads and property refreshes that disagree are recorded below, not applied.</p>
      {FIELDS.map(([name, label, hint]) => (
        <Field key={name} label={label} hint={hint || undefined} error={errors[name]?.join("; ")}>
          {(control) => <Input {...control} name={name} defaultValue={address[name]} maxLength={name === "line_one" ? 200 : 100} />}
        </Field>
      ))}
      <FormError message={general} />
      {done && <output>Address corrected and locked.</output>}
      <SubmitButton pending={correct.isPending}>Correct and lock the address</SubmitButton>
    </form>
  );
}

/** Activate or deactivate, confirmed first; the building's prospects are re-evaluated in the background. */
export function ActiveToggle({ id, name, active }: { id: number; name: string; active: boolean }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateBuilding();
  const toggle = useMutation(trpc.buildings.setActive.mutationOptions({ onSuccess: () => invalidate() }));
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
