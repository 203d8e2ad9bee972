"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useMemo, useState } from "react";
import {
  Button,
  Can,
  type ColumnDef,
  ConfirmDialog,
  type ConsoleOutputs,
  DataTable,
  errorMessage,
  Field,
  FilterBar,
  FormError,
  fieldErrorsOf,
  formatDateTime,
  Input,
  SubmitButton,
  TextField,
  useTRPC,
  useUrlFilters,
} from "../../../_ui";
import { generalErrorOf } from "../form-errors";

type Origin = ConsoleOutputs["frameOrigins"]["list"][number];

const FILTERS = { q: "" };

function useInvalidate() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: trpc.frameOrigins.pathKey() }), queryClient.invalidateQueries({ queryKey: trpc.audit.pathKey() })]);
}

function RemoveOrigin({ origin }: { origin: Origin }) {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  const remove = useMutation(trpc.frameOrigins.remove.mutationOptions({ onSuccess: () => invalidate() }));
  return (
    <ConfirmDialog
      trigger={
        <Button variant="danger" size="small" aria-label={`Remove ${origin.origin}`}>
          Remove
        </Button>
      }
      title={`Remove ${origin.origin}?`}
      description="Embedded enrollment pages stop allowing this origin to frame them on their next load, unless an owner lists it itself."
      actionLabel="Remove"
      danger
      pending={remove.isPending}
      error={remove.error ? errorMessage(remove.error) : undefined}
      onConfirm={() => remove.mutateAsync({ id: origin.id })}
    />
  );
}

/** decisions §4 `frame-origin add`, in the console. */
function AddOrigin() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  const [formKey, setFormKey] = useState(0);
  const [added, setAdded] = useState<string | null>(null);
  const add = useMutation(
    trpc.frameOrigins.add.mutationOptions({
      onSuccess: (row) =>
        invalidate().then(() => {
          setAdded(row.origin);
          setFormKey((key) => key + 1);
        }),
    }),
  );
  const errors = fieldErrorsOf(add.error);
  const general = generalErrorOf(add.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAdded(null);
    add.mutate({ origin: String(new FormData(event.currentTarget).get("origin") ?? "") });
  };
  return (
    <form key={formKey} className="access-form" onSubmit={submit} aria-labelledby="add-origin-title" noValidate>
      <h2 id="add-origin-title">Add a frame origin</h2>
      <Field
        label="Origin"
        hint="An HTTPS origin, such as https://portal.example.com (no path). Staging also accepts http://localhost[:port] and http://127.0.0.1[:port]."
        error={errors.origin?.join("; ")}
      >
        {(control) => (
          <Input {...control} name="origin" type="url" maxLength={300} autoComplete="off" spellCheck={false} placeholder="https://portal.example.com" />
        )}
      </Field>
      <FormError message={general} />
      {added && <output>{added} added.</output>}
      <SubmitButton pending={add.isPending} pendingLabel="Adding…">
        Add origin
      </SubmitButton>
    </form>
  );
}

const columns: ColumnDef<Origin>[] = [
  { accessorKey: "origin", header: "Origin", enableSorting: true, cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  { accessorKey: "created_at", header: "Added", enableSorting: true, cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  {
    id: "actions",
    header: "Actions",
    cell: ({ row }) => (
      <Can permission="access.manage">
        <RemoveOrigin origin={row.original} />
      </Can>
    ),
  },
];

export function FrameOriginsScreen() {
  const trpc = useTRPC();
  const filters = useUrlFilters(FILTERS);
  const { q } = filters.values;
  const list = useQuery(trpc.frameOrigins.list.queryOptions());
  const rows = useMemo(() => list.data?.filter((row) => !q || row.origin.includes(q.toLowerCase())), [list.data, q]);
  return (
    <>
      <FilterBar key={filters.formKey} label="Search frame origins" onApply={filters.fromForm} onReset={filters.reset}>
        <TextField label="Origin contains" name="q" type="search" defaultValue={q} maxLength={300} />
      </FilterBar>
      <DataTable
        label="Frame origins"
        columns={columns}
        data={rows}
        isPending={list.isPending}
        error={list.error}
        empty="No operator frame origin."
        getRowId={(row) => String(row.id)}
      />
      <Can permission="access.manage">
        <AddOrigin />
      </Can>
    </>
  );
}
