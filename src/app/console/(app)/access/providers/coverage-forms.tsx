"use client";
import { useId, useState } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { providerCoverageInput, providerCreateInput } from "@/features/webhooks/console/providers.inputs";
import {
  Button,
  ConfirmDialog,
  type ConsoleOutputs,
  Dialog,
  errorMessage,
  Field,
  FormError,
  Input,
  SubmitButton,
  useConsoleForm,
  useConsoleMutation,
  useTRPC,
} from "../../../_ui";
import css from "../access.module.css";

type Provider = ConsoleOutputs["providers"]["search"][number];

/** Owner slugs, comma or space separated. */
const slugsOf = (text: unknown) => [
  ...new Set(
    String(text ?? "")
      .split(/[\s,]+/)
      .filter(Boolean),
  ),
];

/** Buildings, one per line as `OWNER_SLUG:EXTERNAL_ID`, split at the first `:` (as the CLI's `--building`). */
function buildingsOf(text: unknown): { owner_slug: string; external_id: string }[] {
  return String(text ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf(":");
      return at < 0 ? { owner_slug: line, external_id: "" } : { owner_slug: line.slice(0, at).trim(), external_id: line.slice(at + 1).trim() };
    });
}

/** The coverage inputs as text; the procedure takes them as lists (each input's `setValueAs`). */
function CoverageFields({
  owners,
  buildings,
  errorOf,
}: {
  owners: UseFormRegisterReturn;
  buildings: UseFormRegisterReturn;
  errorOf: (name: string) => string | undefined;
}) {
  const id = useId();
  const buildingsError = errorOf("buildings");
  return (
    <>
      <Field label="Owners (slugs)" hint="Comma separated: every event of these owners." error={errorOf("owner_slugs")}>
        {(control) => <Input {...control} {...owners} maxLength={4000} autoComplete="off" spellCheck={false} />}
      </Field>
      <div className="field">
        <label htmlFor={`${id}-b`}>Buildings</label>
        <textarea
          id={`${id}-b`}
          {...buildings}
          className={css.textarea}
          aria-describedby={`${id}-bh`}
          aria-invalid={buildingsError ? true : undefined}
          maxLength={8000}
          spellCheck={false}
        />
        <small id={`${id}-bh`} className="hint">
          One per line as OWNER_SLUG:EXTERNAL_ID: only the events of records in these buildings.
        </small>
        {buildingsError && <small className="error">{buildingsError}</small>}
      </div>
    </>
  );
}

/** decisions §4 `provider create`: neither owners nor buildings covers every owner granted to the client. */
export function CreateProvider() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      trigger={<Button>New provider</Button>}
      title="New provider subscription"
      description="Leave owners and buildings empty to cover every owner granted to the client."
    >
      <CreateProviderForm onDone={() => setOpen(false)} />
    </Dialog>
  );
}

/** Lives inside the dialog: closing it forgets what was typed and the last failure. */
function CreateProviderForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const create = useConsoleMutation(trpc.providers.create.mutationOptions(), { invalidates: [trpc.providers], onSuccess: onDone });
  const { register, onSubmit, errorOf, general, pending } = useConsoleForm({
    schema: providerCreateInput,
    defaultValues: { code: "", client_id: "", owner_slugs: undefined, buildings: undefined },
    mutation: create,
  });
  return (
    <form className={css.form} onSubmit={onSubmit} aria-label="New provider subscription" noValidate>
      <Field label="Code" hint="Lowercase letters, digits, '_' or '-'." error={errorOf("code")}>
        {(control) => <Input {...control} {...register("code")} maxLength={64} autoComplete="off" spellCheck={false} />}
      </Field>
      <Field label="Client id" error={errorOf("client_id")}>
        {(control) => <Input {...control} {...register("client_id")} maxLength={100} autoComplete="off" spellCheck={false} />}
      </Field>
      <CoverageFields
        owners={register("owner_slugs", { setValueAs: slugsOf })}
        buildings={register("buildings", { setValueAs: buildingsOf })}
        errorOf={errorOf}
      />
      <FormError message={general} className="error" />
      <SubmitButton pending={pending} pendingLabel="Creating…">
        Create provider
      </SubmitButton>
    </form>
  );
}

export function AddCoverage({ provider }: { provider: Provider }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="secondary" size="small" aria-label={`Add coverage to ${provider.code}`}>
          Add coverage
        </Button>
      }
      title={`Add coverage to ${provider.code}`}
    >
      <AddCoverageForm provider={provider} onDone={() => setOpen(false)} />
    </Dialog>
  );
}

/** Lives inside the dialog: closing it forgets what was typed and the last failure. */
function AddCoverageForm({ provider, onDone }: { provider: Provider; onDone: () => void }) {
  const trpc = useTRPC();
  const add = useConsoleMutation(trpc.providers.addCoverage.mutationOptions(), { invalidates: [trpc.providers], onSuccess: onDone });
  const { register, onSubmit, errorOf, general, pending } = useConsoleForm({
    schema: providerCoverageInput,
    defaultValues: { code: provider.code, owner_slugs: undefined, buildings: undefined },
    mutation: add,
  });
  return (
    <form className={css.form} onSubmit={onSubmit} aria-label={`Add coverage to ${provider.code}`} noValidate>
      <CoverageFields
        owners={register("owner_slugs", { setValueAs: slugsOf })}
        buildings={register("buildings", { setValueAs: buildingsOf })}
        errorOf={errorOf}
      />
      <FormError message={general} className="error" />
      <SubmitButton pending={pending} pendingLabel="Adding…">
        Add coverage
      </SubmitButton>
    </form>
  );
}

/** Removes one owner or one building from a provider's coverage, confirmed. */
export function RemoveCoverage({ provider, owner, building }: { provider: Provider; owner?: string; building?: { owner_slug: string; external_id: string } }) {
  const trpc = useTRPC();
  const remove = useConsoleMutation(trpc.providers.removeCoverage.mutationOptions(), { invalidates: [trpc.providers] });
  const what = owner ?? `${building?.owner_slug}:${building?.external_id}`;
  const last = provider.owners.length + provider.buildings.length === 1;
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="small" aria-label={`Remove ${what} from ${provider.code}`}>
          ×
        </Button>
      }
      title={`Remove ${what} from ${provider.code}?`}
      description={
        last
          ? "This is the last owner or building: the provider will then cover every owner granted to its client."
          : "The provider stops receiving events of it."
      }
      actionLabel="Remove"
      danger
      pending={remove.isPending}
      error={remove.error ? errorMessage(remove.error) : undefined}
      onConfirm={() => remove.mutateAsync({ code: provider.code, ...(owner ? { owner_slug: owner } : { building }) })}
    />
  );
}
