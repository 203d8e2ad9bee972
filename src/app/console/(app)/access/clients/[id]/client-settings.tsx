"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Button, ConfirmDialog, type ConsoleInputs, type ConsoleOutputs, errorMessage, SubmitButton, useTRPC } from "../../../../_ui";
import css from "../../access.module.css";
import { failureOf } from "../../form-errors";
import { ScopeChecks } from "../scope-checks";

type Detail = ConsoleOutputs["accessClients"]["detail"];
type Scopes = NonNullable<ConsoleInputs["accessClients"]["update"]["scopes"]>;

function useInvalidateClient() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: trpc.accessClients.pathKey() }), queryClient.invalidateQueries({ queryKey: trpc.audit.pathKey() })]);
}

/** Scopes (only the gateway's, at least one) and the signature requirement; applies to the client's next request. */
export function ClientSettings({ client }: { client: Detail }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateClient();
  const [saved, setSaved] = useState(false);
  const update = useMutation(trpc.accessClients.update.mutationOptions({ onSuccess: () => invalidate().then(() => setSaved(true)) }));
  const failure = failureOf(update.error, ["scopes", "require_signature"]);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    const data = new FormData(event.currentTarget);
    update.mutate({
      client_id: client.client_id,
      scopes: data.getAll("scopes").map(String) as Scopes,
      require_signature: data.get("require_signature") === "on",
    });
  };
  return (
    <form className={`${css.section} ${css.form}`} onSubmit={submit} aria-labelledby="client-settings" noValidate>
      <h2 id="client-settings">Scopes and signatures</h2>
      <p className="hint">Takes effect on the client's next request: a removed scope is refused even with a token obtained before.</p>
      <ScopeChecks scopes={client.gateway_scopes} checked={client.scopes} error={failure.fields.scopes} />
      <label className={css.check}>
        <input type="checkbox" name="require_signature" defaultChecked={client.require_signature} />
        Require request signatures (X-Request-Signature)
      </label>
      {failure.general && (
        <p role="alert" className="error">
          {failure.general}
        </p>
      )}
      {saved && <output>Saved.</output>}
      <SubmitButton pending={update.isPending}>Save scopes and signatures</SubmitButton>
    </form>
  );
}

/**
 * Rotation, confirmed by typing the client id: the old secret and every token obtained with it stop
 * working at once (docs/decisions.md, Console: access management). The new secret is shown once.
 */
export function RotateSecret({ clientId, name, onRotated }: { clientId: string; name: string; onRotated: (secret: string) => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateClient();
  const rotate = useMutation(trpc.accessClients.rotateSecret.mutationOptions({ onSuccess: () => invalidate() }));
  return (
    <ConfirmDialog
      trigger={<Button variant="danger">Rotate secret</Button>}
      title={`Rotate the secret of ${name}?`}
      description="The current secret stops working immediately, and so do access tokens obtained with it and request signatures made with it. The partner must switch to the new secret, which is shown once."
      actionLabel="Rotate secret"
      confirmText={clientId}
      danger
      pending={rotate.isPending}
      error={rotate.error ? errorMessage(rotate.error) : undefined}
      onConfirm={async () => {
        const rotated = await rotate.mutateAsync({ client_id: clientId });
        onRotated(rotated.client_secret);
        // The secret lives only in the page's state from here on.
        rotate.reset();
      }}
    />
  );
}

/**
 * Disable (confirmed) or enable a client: a disabled client gets no token and its tokens are refused
 * on their next request; its grants, sources and endpoints are kept for when it is enabled again.
 */
export function ClientStatus({ clientId, name, disabled }: { clientId: string; name: string; disabled: boolean }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateClient();
  const change = useMutation(trpc.accessClients.setDisabled.mutationOptions({ onSuccess: () => invalidate() }));
  if (disabled)
    return (
      <>
        <Button
          variant="secondary"
          disabled={change.isPending}
          aria-busy={change.isPending || undefined}
          onClick={() => change.mutate({ client_id: clientId, disabled: false })}
        >
          {change.isPending ? "Enabling…" : "Enable client"}
        </Button>
        {change.error && (
          <p role="alert" className="error">
            {errorMessage(change.error)}
          </p>
        )}
      </>
    );
  return (
    <ConfirmDialog
      trigger={<Button variant="danger">Disable client</Button>}
      title={`Disable ${name}?`}
      description="It can no longer get tokens, and the tokens it holds are refused on their next request. Its grants, sources and endpoints are kept; enabling it restores them."
      actionLabel="Disable client"
      danger
      pending={change.isPending}
      error={change.error ? errorMessage(change.error) : undefined}
      onConfirm={() => change.mutateAsync({ client_id: clientId, disabled: true })}
    />
  );
}
