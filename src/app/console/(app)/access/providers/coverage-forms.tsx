"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Button, ConfirmDialog, type ConsoleOutputs, Dialog, errorMessage, Field, Input, SubmitButton, useTRPC } from "../../../_ui";
import css from "../access.module.css";
import { failureOf } from "../form-errors";

type Provider = ConsoleOutputs["providers"]["search"][number];

function useInvalidate() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: trpc.providers.pathKey() }), queryClient.invalidateQueries({ queryKey: trpc.audit.pathKey() })]);
}

/** Owner slugs, comma or space separated. */
const slugsOf = (text: string) => [...new Set(text.split(/[\s,]+/).filter(Boolean))];

/** Buildings, one per line as `OWNER_SLUG:EXTERNAL_ID`, split at the first `:` (as the CLI's `--building`). */
function buildingsOf(text: string): { owner_slug: string; external_id: string }[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf(":");
      return at < 0 ? { owner_slug: line, external_id: "" } : { owner_slug: line.slice(0, at).trim(), external_id: line.slice(at + 1).trim() };
    });
}

function CoverageFields({ fields }: { fields: Record<string, string> }) {
  const id = useId();
  return (
    <>
      <Field label="Owners (slugs)" hint="Comma separated: every event of these owners." error={fields.owner_slugs}>
        {(control) => <Input {...control} name="owner_slugs" maxLength={4000} autoComplete="off" spellCheck={false} />}
      </Field>
      <div className="field">
        <label htmlFor={`${id}-b`}>Buildings</label>
        <textarea
          id={`${id}-b`}
          name="buildings"
          className={css.textarea}
          aria-describedby={`${id}-bh`}
          aria-invalid={fields.buildings ? true : undefined}
          maxLength={8000}
          spellCheck={false}
        />
        <small id={`${id}-bh`} className="hint">
          One per line as OWNER_SLUG:EXTERNAL_ID: only the events of records in these buildings.
        </small>
        {fields.buildings && <small className="error">{fields.buildings}</small>}
      </div>
    </>
  );
}

const FIELDS = ["code", "client_id", "owner_slugs", "buildings"] as const;

/** decisions §4 `provider create`: neither owners nor buildings covers every owner granted to the client. */
export function CreateProvider() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  const [open, setOpen] = useState(false);
  const create = useMutation(trpc.providers.create.mutationOptions({ onSuccess: () => invalidate().then(() => setOpen(false)) }));
  const failure = failureOf(create.error, FIELDS);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = (name: string) => String(data.get(name) ?? "");
    create.mutate({
      code: value("code"),
      client_id: value("client_id"),
      owner_slugs: slugsOf(value("owner_slugs")),
      buildings: buildingsOf(value("buildings")),
    });
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) create.reset();
      }}
      trigger={<Button>New provider</Button>}
      title="New provider subscription"
      description="Leave owners and buildings empty to cover every owner granted to the client."
    >
      <form className={css.form} onSubmit={submit} aria-label="New provider subscription" noValidate>
        <Field label="Code" hint="Lowercase letters, digits, '_' or '-'." error={failure.fields.code}>
          {(control) => <Input {...control} name="code" maxLength={64} autoComplete="off" spellCheck={false} />}
        </Field>
        <Field label="Client id" error={failure.fields.client_id}>
          {(control) => <Input {...control} name="client_id" maxLength={100} autoComplete="off" spellCheck={false} />}
        </Field>
        <CoverageFields fields={failure.fields} />
        {failure.general && (
          <p role="alert" className="error">
            {failure.general}
          </p>
        )}
        <SubmitButton pending={create.isPending} pendingLabel="Creating…">
          Create provider
        </SubmitButton>
      </form>
    </Dialog>
  );
}

export function AddCoverage({ provider }: { provider: Provider }) {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  const [open, setOpen] = useState(false);
  const add = useMutation(trpc.providers.addCoverage.mutationOptions({ onSuccess: () => invalidate().then(() => setOpen(false)) }));
  const failure = failureOf(add.error, FIELDS);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    add.mutate({
      code: provider.code,
      owner_slugs: slugsOf(String(data.get("owner_slugs") ?? "")),
      buildings: buildingsOf(String(data.get("buildings") ?? "")),
    });
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) add.reset();
      }}
      trigger={
        <Button variant="secondary" size="small" aria-label={`Add coverage to ${provider.code}`}>
          Add coverage
        </Button>
      }
      title={`Add coverage to ${provider.code}`}
    >
      <form className={css.form} onSubmit={submit} aria-label={`Add coverage to ${provider.code}`} noValidate>
        <CoverageFields fields={failure.fields} />
        {failure.general && (
          <p role="alert" className="error">
            {failure.general}
          </p>
        )}
        <SubmitButton pending={add.isPending} pendingLabel="Adding…">
          Add coverage
        </SubmitButton>
      </form>
    </Dialog>
  );
}

/** Removes one owner or one building from a provider's coverage, confirmed. */
export function RemoveCoverage({ provider, owner, building }: { provider: Provider; owner?: string; building?: { owner_slug: string; external_id: string } }) {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  const remove = useMutation(trpc.providers.removeCoverage.mutationOptions({ onSuccess: () => invalidate() }));
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
