"use client";
import { Controller } from "react-hook-form";
import { clientUpdateInput } from "@/features/auth/console/clients.inputs";
import {
  Button,
  ConfirmDialog,
  type ConsoleInputs,
  type ConsoleOutputs,
  errorMessage,
  FormError,
  SubmitButton,
  useConsoleForm,
  useConsoleMutation,
  useTRPC,
} from "../../../../_ui";
import css from "../../access.module.css";
import { ScopeChecks } from "../scope-checks";

type Detail = ConsoleOutputs["accessClients"]["detail"];
type Scopes = NonNullable<ConsoleInputs["accessClients"]["update"]["scopes"]>;

/** Scopes (only the gateway's, at least one) and the signature requirement; applies to the client's next request. */
export function ClientSettings({ client }: { client: Detail }) {
  const trpc = useTRPC();
  const update = useConsoleMutation(trpc.accessClients.update.mutationOptions(), { invalidates: [trpc.accessClients] });
  const { register, control, onSubmit, errorOf, general, done, pending } = useConsoleForm({
    schema: clientUpdateInput,
    defaultValues: { client_id: client.client_id, scopes: client.scopes as Scopes, require_signature: client.require_signature },
    mutation: update,
  });
  return (
    <form className={`${css.section} ${css.form}`} onSubmit={onSubmit} aria-labelledby="client-settings" noValidate>
      <h2 id="client-settings">Scopes and signatures</h2>
      <p className="hint">Takes effect on the client's next request: a removed scope is refused even with a token obtained before.</p>
      <Controller
        control={control}
        name="scopes"
        render={({ field }) => (
          <ScopeChecks scopes={client.gateway_scopes as Scopes} value={field.value ?? []} onChange={field.onChange} error={errorOf("scopes")} />
        )}
      />
      <label className={css.check}>
        <input type="checkbox" {...register("require_signature")} />
        Require request signatures (X-Request-Signature)
      </label>
      <FormError message={general} className="error" />
      {done && <output>Saved.</output>}
      <SubmitButton pending={pending}>Save scopes and signatures</SubmitButton>
    </form>
  );
}

/**
 * Rotation, confirmed by typing the client id: the old secret and every token obtained with it stop
 * working at once (docs/decisions.md, Console: access management). The new secret is shown once.
 */
export function RotateSecret({ clientId, name, onRotated }: { clientId: string; name: string; onRotated: (secret: string) => void }) {
  const trpc = useTRPC();
  const rotate = useConsoleMutation(trpc.accessClients.rotateSecret.mutationOptions(), { invalidates: [trpc.accessClients] });
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
  const change = useConsoleMutation(trpc.accessClients.setDisabled.mutationOptions(), { invalidates: [trpc.accessClients] });
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
