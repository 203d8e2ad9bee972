"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { ALL_SCOPES } from "@/features/auth/console/scopes-list";
import { Button, type ConsoleInputs, Dialog, Field, Input, Select, SubmitButton, useTRPC } from "../../../_ui";
import css from "../access.module.css";
import { failureOf } from "../form-errors";
import { SecretOnce } from "../secret-once";
import { ScopeChecks } from "./scope-checks";

type CreateInput = ConsoleInputs["accessClients"]["create"];
const FORM_FIELDS = ["name", "gateway", "partner_client_id", "provider_code", "scopes", "require_signature"] as const;

/**
 * decisions §4 `client create`: name, gateway, optional provider code, scopes of the gateway (all by
 * default), signature requirement; an ingestion client's partner client (decisions §15 Ingestion).
 * The secret is shown once in the dialog, then the client's page.
 */
export function CreateClient() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [gateway, setGateway] = useState<CreateInput["gateway"]>("partner");
  const create = useMutation(
    trpc.accessClients.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.accessClients.pathKey() }) }),
  );
  const failure = failureOf(create.error, FORM_FIELDS);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    create.mutate({
      name: String(data.get("name") ?? ""),
      gateway,
      partner_client_id: gateway === "ingestion" ? String(data.get("partner_client_id") ?? "") : undefined,
      provider_code: String(data.get("provider_code") ?? ""),
      scopes: data.getAll("scopes").map(String) as CreateInput["scopes"],
      require_signature: data.get("require_signature") === "on",
    });
  };
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
        <form className={css.form} onSubmit={submit} aria-label="New API client" noValidate>
          <Field label="Name" error={failure.fields.name}>
            {(control) => <Input {...control} name="name" required maxLength={200} autoComplete="off" />}
          </Field>
          <Select
            label="Gateway"
            value={gateway}
            onValueChange={(value) => setGateway(value as CreateInput["gateway"])}
            options={[
              { value: "partner", label: "Partner API" },
              { value: "ingestion", label: "Event ingestion" },
            ]}
          />
          {gateway === "ingestion" && (
            <Field
              label="Partner client id"
              hint="The Partner API client this client sends events for: its events may name only that client's sources. Empty: only sources created for this client."
              error={failure.fields.partner_client_id}
            >
              {(control) => <Input {...control} name="partner_client_id" maxLength={100} autoComplete="off" spellCheck={false} />}
            </Field>
          )}
          <Field label="Provider code (optional)" hint="Lowercase letters, digits, '_' or '-'." error={failure.fields.provider_code}>
            {(control) => <Input {...control} name="provider_code" maxLength={64} autoComplete="off" />}
          </Field>
          <ScopeChecks
            key={gateway}
            scopes={ALL_SCOPES[gateway]}
            checked={ALL_SCOPES[gateway]}
            error={failure.fields.scopes}
            legend="Scopes (all of the gateway's are checked by default)"
          />
          <label className={css.check}>
            <input type="checkbox" name="require_signature" />
            Require request signatures (X-Request-Signature)
          </label>
          {failure.general && (
            <p role="alert" className="error">
              {failure.general}
            </p>
          )}
          <SubmitButton pending={create.isPending} pendingLabel="Creating…">
            Create client
          </SubmitButton>
        </form>
      )}
    </Dialog>
  );
}
