"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
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
  formatDateTime,
  Input,
  Select,
  SubmitButton,
  TextField,
  useCan,
  useTRPC,
  useUrlFilters,
} from "../../../_ui";
import css from "../access.module.css";
import { failureOf } from "../form-errors";

type Row = ConsoleOutputs["buildingGrants"]["search"][number];
const FILTERS = { owner: "", client: "" };
const PMS = [
  { value: "pms_one", label: "pms_one" },
  { value: "pms_two", label: "pms_two" },
];

function useInvalidate() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.buildingGrants.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.accessClients.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.audit.pathKey() }),
    ]);
}

function RemoveGrant({ grant }: { grant: Row }) {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  const remove = useMutation(trpc.buildingGrants.remove.mutationOptions({ onSuccess: () => invalidate() }));
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

const FORM_FIELDS = ["owner_slug", "client_id", "pms_type", "pms_property_id"] as const;

/** decisions §4 `owner grant-building`: a partner reaches a named building (PMS pair) of a managed owner. */
function AddGrant({ owner, client }: { owner: string; client: string }) {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  const [open, setOpen] = useState(false);
  const [pmsType, setPmsType] = useState<"pms_one" | "pms_two">("pms_one");
  const add = useMutation(trpc.buildingGrants.add.mutationOptions({ onSuccess: () => invalidate().then(() => setOpen(false)) }));
  const failure = failureOf(add.error, FORM_FIELDS);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = (name: string) => String(data.get(name) ?? "");
    add.mutate({ owner_slug: value("owner_slug"), client_id: value("client_id"), pms_type: pmsType, pms_property_id: value("pms_property_id") });
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) add.reset();
      }}
      trigger={<Button>Add building grant</Button>}
      title="Add a building grant"
      description="Only managed owners take building grants; the client is granted the owner with it."
    >
      <form className={css.form} onSubmit={submit} aria-label="Add a building grant" noValidate>
        <Field label="Owner slug" error={failure.fields.owner_slug}>
          {(control) => <Input {...control} name="owner_slug" defaultValue={owner} maxLength={200} autoComplete="off" spellCheck={false} />}
        </Field>
        <Field label="Client id" error={failure.fields.client_id}>
          {(control) => <Input {...control} name="client_id" defaultValue={client} maxLength={100} autoComplete="off" spellCheck={false} />}
        </Field>
        <Select label="PMS type" value={pmsType} onValueChange={(value) => setPmsType(value as "pms_one" | "pms_two")} options={PMS} />
        <Field label="PMS property id" error={failure.fields.pms_property_id}>
          {(control) => <Input {...control} name="pms_property_id" maxLength={200} autoComplete="off" spellCheck={false} />}
        </Field>
        {failure.general && (
          <p role="alert" className="error">
            {failure.general}
          </p>
        )}
        <SubmitButton pending={add.isPending} pendingLabel="Adding…">
          Add grant
        </SubmitButton>
      </form>
    </Dialog>
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
