"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Controller } from "react-hook-form";
import { clientCreateInput } from "@/features/auth/console/clients.inputs";
import { ALL_SCOPES } from "@/features/auth/console/scopes-list";
import { Button, type ConsoleInputs, Dialog, Field, FormError, Input, Select, SubmitButton, useConsoleForm, useConsoleMutation, useTRPC } from "../../../_ui";
import css from "../access.module.css";
import { SecretOnce } from "../secret-once";
import { ScopeChecks } from "./scope-checks";

type Gateway = ConsoleInputs["accessClients"]["create"]["gateway"];

/**
 * decisions §4 `client create`: name, gateway, optional provider code, scopes of the gateway (all by
 * default), signature requirement; an ingestion client's partner client (decisions §15 Ingestion).
 * The secret is shown once in the dialog, then the client's page.
 */
export function CreateClient() {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const create = useCreateMutation();
  const close = (next: boolean) => {
    // Closing forgets the secret: it is never fetched again.
    setOpen(next);
    if (!next) create.reset();
  };
  const done = create.data;
  return (
    <Dialog open={open} onOpenChange={close} trigger={<Button>New client</Button>} title={done ? "Client created" : "New API client"}>
      {done ? (
        <SecretOnce
          clientId={done.client.client_id}
          secret={done.client_secret}
          doneLabel="I have stored it — open the client"
          onDone={() => {
            close(false);
            router.push(`/console/access/clients/${encodeURIComponent(done.client.client_id)}`);
          }}
        />
      ) : (
        <CreateClientForm mutation={create} />
      )}
    </Dialog>
  );
}

/** Lives inside the dialog: closing it forgets what was typed. */
function CreateClientForm({ mutation }: { mutation: ReturnType<typeof useCreateMutation> }) {
  const { form, register, control, onSubmit, errorOf, general, pending } = useConsoleForm({
    schema: clientCreateInput,
    defaultValues: {
      name: "",
      gateway: "partner",
      partner_client_id: undefined,
      provider_code: "",
      scopes: [...ALL_SCOPES.partner],
      require_signature: false,
    },
    mutation,
  });
  const gateway = form.watch("gateway");
  return (
    <form className={css.form} onSubmit={onSubmit} aria-label="New API client" noValidate>
      <Field label="Name" error={errorOf("name")}>
        {(control) => <Input {...control} {...register("name")} required maxLength={200} autoComplete="off" />}
      </Field>
      <Controller
        control={control}
        name="gateway"
        render={({ field }) => (
          <Select
            label="Gateway"
            value={field.value}
            onValueChange={(value) => {
              // A gateway's scopes, all of them checked, replace the other gateway's.
              field.onChange(value);
              form.setValue("scopes", [...ALL_SCOPES[value as Gateway]]);
            }}
            options={[
              { value: "partner", label: "Partner API" },
              { value: "ingestion", label: "Event ingestion" },
            ]}
          />
        )}
      />
      {gateway === "ingestion" && (
        <Field
          label="Partner client id"
          hint="The Partner API client this client sends events for: its events may name only that client's sources. Empty: only sources created for this client."
          error={errorOf("partner_client_id")}
        >
          {(control) => (
            <Input {...control} {...register("partner_client_id", { shouldUnregister: true })} maxLength={100} autoComplete="off" spellCheck={false} />
          )}
        </Field>
      )}
      <Field label="Provider code (optional)" hint="Lowercase letters, digits, '_' or '-'." error={errorOf("provider_code")}>
        {(control) => <Input {...control} {...register("provider_code")} maxLength={64} autoComplete="off" />}
      </Field>
      <Controller
        control={control}
        name="scopes"
        render={({ field }) => (
          <ScopeChecks
            scopes={ALL_SCOPES[gateway]}
            value={field.value ?? []}
            onChange={field.onChange}
            error={errorOf("scopes")}
            legend="Scopes (all of the gateway's are checked by default)"
          />
        )}
      />
      <label className={css.check}>
        <input type="checkbox" {...register("require_signature")} />
        Require request signatures (X-Request-Signature)
      </label>
      <FormError message={general} className="error" />
      <SubmitButton pending={pending} pendingLabel="Creating…">
        Create client
      </SubmitButton>
    </form>
  );
}

/** The mutation lives with the dialog: its answer holds the secret shown once. */
function useCreateMutation() {
  const trpc = useTRPC();
  return useConsoleMutation(trpc.accessClients.create.mutationOptions(), { invalidates: [trpc.accessClients] });
}
