"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { buildingGrantInput } from "@/features/owners/console/building-grants.inputs";
import {
  Button,
  Can,
  type ColumnDef,
  ConfirmDialog,
  type ConsoleOutputs,
  DataTable,
  Dialog,
  errorMessage,
  Field,
  FilterBar,
  FormError,
  FormSelect,
  formatDateTime,
  Input,
  SubmitButton,
  TextField,
  useCan,
  useConsoleForm,
  useConsoleMutation,
  useTRPC,
  useUrlFilters,
} from "../../../_ui";
import css from "../access.module.css";

type Row = ConsoleOutputs["buildingGrants"]["search"][number];
const FILTERS = { owner: "", client: "" };
const PMS = [
  { value: "pms_one", label: "pms_one" },
  { value: "pms_two", label: "pms_two" },
];

function RemoveGrant({ grant }: { grant: Row }) {
  const trpc = useTRPC();
  const remove = useConsoleMutation(trpc.buildingGrants.remove.mutationOptions(), { invalidates: [trpc.buildingGrants, trpc.accessClients] });
  return (
    <ConfirmDialog
      trigger={
        <Button variant="danger" size="small" aria-label={`Remove ${grant.pms_type} ${grant.pms_property_id} for ${grant.client_id}`}>
          Remove
        </Button>
      }
      title="Remove this building grant?"
      description={`${grant.client_id} no longer reaches ${grant.pms_type} ${grant.pms_property_id} of ${grant.owner_slug}. Its grant of the owner stays.`}
      actionLabel="Remove"
      danger
      pending={remove.isPending}
      error={remove.error ? errorMessage(remove.error) : undefined}
      onConfirm={() => remove.mutateAsync({ id: grant.id })}
    />
  );
}

/** decisions §4 `owner grant-building`: a partner reaches a named building (PMS pair) of a managed owner. */
function AddGrant({ owner, client }: { owner: string; client: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      trigger={<Button>Add building grant</Button>}
      title="Add a building grant"
      description="Only managed owners take building grants; the client is granted the owner with it."
    >
      <AddGrantForm owner={owner} client={client} onDone={() => setOpen(false)} />
    </Dialog>
  );
}

/** Lives inside the dialog: closing it forgets what was typed and the last failure. */
function AddGrantForm({ owner, client, onDone }: { owner: string; client: string; onDone: () => void }) {
  const trpc = useTRPC();
  const add = useConsoleMutation(trpc.buildingGrants.add.mutationOptions(), { invalidates: [trpc.buildingGrants, trpc.accessClients], onSuccess: onDone });
  const { register, control, onSubmit, errorOf, general, pending } = useConsoleForm({
    schema: buildingGrantInput,
    defaultValues: { owner_slug: owner, client_id: client, pms_type: "pms_one", pms_property_id: "" },
    mutation: add,
  });
  return (
    <form className={css.form} onSubmit={onSubmit} aria-label="Add a building grant" noValidate>
      <Field label="Owner slug" error={errorOf("owner_slug")}>
        {(control) => <Input {...control} {...register("owner_slug")} maxLength={200} autoComplete="off" spellCheck={false} />}
      </Field>
      <Field label="Client id" error={errorOf("client_id")}>
        {(control) => <Input {...control} {...register("client_id")} maxLength={100} autoComplete="off" spellCheck={false} />}
      </Field>
      <FormSelect control={control} name="pms_type" label="PMS type" options={PMS} error={errorOf("pms_type")} />
      <Field label="PMS property id" error={errorOf("pms_property_id")}>
        {(control) => <Input {...control} {...register("pms_property_id")} maxLength={200} autoComplete="off" spellCheck={false} />}
      </Field>
      <FormError message={general} className="error" />
      <SubmitButton pending={pending} pendingLabel="Adding…">
        Add grant
      </SubmitButton>
    </form>
  );
}

/** Building grants of managed owners, filtered by owner and client in the URL (docs/decisions.md, "Console: access management, part A"). */
export function BuildingGrantsScreen() {
  const trpc = useTRPC();
  const filters = useUrlFilters(FILTERS);
  const { owner, client } = filters.values;
  const manage = useCan("access.manage");
  const grants = useQuery(trpc.buildingGrants.search.queryOptions({ owner_slug: owner || undefined, client_id: client || undefined }));
  const columns: ColumnDef<Row>[] = [
    { accessorKey: "owner_slug", header: "Owner", enableSorting: true, cell: ({ row }) => `${row.original.owner_name} (${row.original.owner_slug})` },
    {
      accessorKey: "client_id",
      header: "Client",
      enableSorting: true,
      cell: ({ row }) => (
        <Link href={`/console/access/clients/${encodeURIComponent(row.original.client_id)}`}>{row.original.client_name ?? row.original.client_id}</Link>
      ),
    },
    { id: "pms", header: "PMS property", cell: ({ row }) => <code>{`${row.original.pms_type} ${row.original.pms_property_id}`}</code> },
    {
      accessorKey: "building",
      header: "Building",
      cell: ({ row }) =>
        row.original.building ? (
          <Link href={`/console/buildings/${row.original.building.id}`}>{row.original.building.name}</Link>
        ) : (
          <span className="muted">not loaded yet</span>
        ),
    },
    { accessorKey: "created_at", header: "Added", enableSorting: true, cell: ({ getValue }) => formatDateTime(getValue<string>()) },
    ...(manage ? [{ id: "remove", header: "", cell: ({ row }: { row: { original: Row } }) => <RemoveGrant grant={row.original} /> }] : []),
  ];
  return (
    <>
      <Can permission="access.manage">
        <p>
          <AddGrant owner={owner} client={client} />
        </p>
      </Can>
      <FilterBar key={filters.formKey} label="Search building grants" onApply={filters.fromForm} onReset={filters.reset}>
        <TextField label="Owner slug" name="owner" defaultValue={owner} maxLength={200} />
        <TextField label="Client id" name="client" defaultValue={client} maxLength={100} />
      </FilterBar>
      <DataTable
        label="Building grants"
        columns={columns}
        data={grants.data}
        isPending={grants.isPending}
        error={grants.error}
        empty="No building grants match."
        getRowId={(row) => String(row.id)}
      />
    </>
  );
}
