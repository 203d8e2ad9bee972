"use client";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { frameOriginAddInput } from "@/features/enrollment/console/frame-origins.inputs";
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
  formatDateTime,
  Input,
  SubmitButton,
  TextField,
  useConsoleForm,
  useConsoleMutation,
  useTRPC,
  useUrlFilters,
} from "../../../_ui";

type Origin = ConsoleOutputs["frameOrigins"]["list"][number];

const FILTERS = { q: "" };

function RemoveOrigin({ origin }: { origin: Origin }) {
  const trpc = useTRPC();
  const remove = useConsoleMutation(trpc.frameOrigins.remove.mutationOptions(), { invalidates: [trpc.frameOrigins] });
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
  const add = useConsoleMutation(trpc.frameOrigins.add.mutationOptions(), { invalidates: [trpc.frameOrigins] });
  const { register, onSubmit, errorOf, general, done, pending } = useConsoleForm({
    schema: frameOriginAddInput,
    defaultValues: { origin: "" },
    mutation: add,
    resetOnSuccess: true,
  });
  return (
    <form className="access-form" onSubmit={onSubmit} aria-labelledby="add-origin-title" noValidate>
      <h2 id="add-origin-title">Add a frame origin</h2>
      <Field
        label="Origin"
        hint="An HTTPS origin, such as https://portal.example.com (no path). Staging also accepts http://localhost[:port] and http://127.0.0.1[:port]."
        error={errorOf("origin")}
      >
        {(control) => (
          <Input
            {...control}
            {...register("origin")}
            type="url"
            maxLength={300}
            autoComplete="off"
            spellCheck={false}
            placeholder="https://portal.example.com"
          />
        )}
      </Field>
      <FormError message={general} />
      {done && <output>{done.origin} added.</output>}
      <SubmitButton pending={pending} pendingLabel="Adding…">
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
