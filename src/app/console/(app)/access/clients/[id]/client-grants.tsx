"use client";
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { grantInput } from "@/features/auth/console/grants.inputs";
import {
  Badge,
  Button,
  Can,
  type ColumnDef,
  ConfirmDialog,
  type ConsoleOutputs,
  DataTable,
  errorMessage,
  Field,
  formatDateTime,
  Input,
  SubmitButton,
  useCan,
  useConsoleForm,
  useConsoleMutation,
  useTRPC,
} from "../../../../_ui";
import css from "../../access.module.css";

type Detail = ConsoleOutputs["accessClients"]["detail"];
type Grant = Detail["grants"][number];

/** Revoke, confirmed: the next partner request for this owner is refused (403). */
function RevokeGrant({ clientId, grant }: { clientId: string; grant: Grant }) {
  const trpc = useTRPC();
  const revoke = useConsoleMutation(trpc.accessClients.revokeOwner.mutationOptions(), { invalidates: [trpc.accessClients, trpc.buildingGrants] });
  return (
    <ConfirmDialog
      trigger={
        <Button variant="danger" size="small" aria-label={`Revoke ${grant.owner_slug}`}>
          Revoke
        </Button>
      }
      title={`Revoke the grant of ${grant.owner_slug}?`}
      description={`The client's next request for ${grant.owner_name} is refused.${grant.managed ? " Its building grants under this owner are removed too." : ""}`}
      actionLabel="Revoke"
      danger
      pending={revoke.isPending}
      error={revoke.error ? errorMessage(revoke.error) : undefined}
      onConfirm={() => revoke.mutateAsync({ client_id: clientId, owner_slug: grant.owner_slug })}
    />
  );
}

/** Grant an owner by slug, with suggestions by slug or name as one types. */
function GrantOwner({ clientId }: { clientId: string }) {
  const trpc = useTRPC();
  const listId = useId();
  const grant = useConsoleMutation(trpc.accessClients.grantOwner.mutationOptions(), { invalidates: [trpc.accessClients, trpc.buildingGrants] });
  const { form, register, onSubmit, errorOf, general, done, pending } = useConsoleForm({
    schema: grantInput,
    defaultValues: { client_id: clientId, owner_slug: "" },
    mutation: grant,
    resetOnSuccess: true,
  });
  const typed = form.watch("owner_slug");
  const options = useQuery(trpc.accessClients.ownerOptions.queryOptions({ query: typed.trim() || undefined }));
  return (
    <form className={css.inline} onSubmit={onSubmit} aria-label="Grant an owner" noValidate>
      <Field label="Owner slug" hint="Type a slug or a name to see matching owners." error={errorOf("owner_slug") ?? general ?? undefined}>
        {(control) => <Input {...control} {...register("owner_slug")} list={listId} maxLength={200} autoComplete="off" spellCheck={false} />}
      </Field>
      <datalist id={listId}>
        {options.data?.map((owner) => (
          <option key={owner.owner_slug} value={owner.owner_slug}>
            {owner.name}
            {owner.managed ? " (managed)" : ""}
          </option>
        ))}
      </datalist>
      <SubmitButton pending={pending} disabled={!typed.trim()} pendingLabel="Granting…">
        Grant owner
      </SubmitButton>
      {done && <output>{done.changed ? `Granted ${done.owner_slug}.` : `${done.owner_slug} was already granted.`}</output>}
    </form>
  );
}

/** The client's owner grants (spec Owner slugs and access); not cached, so a change applies to the next request. */
export function ClientGrants({ client }: { client: Detail }) {
  const manage = useCan("access.manage") && !client.disabled_at;
  const columns: ColumnDef<Grant>[] = [
    { accessorKey: "owner_slug", header: "Owner slug", enableSorting: true, cell: ({ getValue }) => <code>{getValue<string>()}</code> },
    { accessorKey: "owner_name", header: "Name", enableSorting: true },
    { accessorKey: "managed", header: "Kind", cell: ({ getValue }) => (getValue<boolean>() ? <Badge tone="info">managed</Badge> : "partner-created") },
    { accessorKey: "granted_at", header: "Granted", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
    ...(manage
      ? [{ id: "revoke", header: "", cell: ({ row }: { row: { original: Grant } }) => <RevokeGrant clientId={client.client_id} grant={row.original} /> }]
      : []),
  ];
  return (
    <section className={css.section} aria-labelledby="client-grants">
      <h2 id="client-grants">Owner grants</h2>
      {manage && (
        <Can permission="access.manage">
          <GrantOwner clientId={client.client_id} />
        </Can>
      )}
      <DataTable label="Owner grants" columns={columns} data={client.grants} empty="No owners granted yet." getRowId={(row) => row.owner_slug} />
    </section>
  );
}
