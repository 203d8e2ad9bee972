"use client";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { sourceCreateInput, sourceUpdateInput } from "@/features/prospects/console/sources.inputs";
import {
  Button,
  Can,
  type ColumnDef,
  type ConsoleOutputs,
  DataTable,
  Dialog,
  Field,
  FilterBar,
  FormError,
  FormSelect,
  Input,
  linesOf,
  Select,
  SubmitButton,
  TextField,
  useConsoleForm,
  useConsoleMutation,
  useTRPC,
  useUrlFilters,
} from "../../../_ui";
import styles from "../../../_ui/ui.module.css";

type Source = ConsoleOutputs["sources"]["list"][number];

const FILTERS = { q: "", flow: "" };
const FLOW_OPTIONS = [
  { value: "embedded", label: "Embedded" },
  { value: "expedited", label: "Expedited" },
];
const DOMAINS_HINT = "One per line: a domain name such as apply.example.com or *.example.com (staging also accepts localhost).";

/** A textarea of one domain a line; the procedure takes them as a list. */
function DomainsField({ defaultValue, error, registration }: { defaultValue: string[]; error?: string; registration: UseFormRegisterReturn }) {
  return (
    <Field label="Redirect domains" hint={DOMAINS_HINT} error={error}>
      {(control) => <textarea {...control} {...registration} rows={3} className={styles.input} defaultValue={defaultValue.join("\n")} />}
    </Field>
  );
}

function OptionalFields({ registration }: { registration: UseFormRegisterReturn }) {
  return (
    <label className="checkbox">
      <input type="checkbox" {...registration} />
      Ingested events may omit optional fields
    </label>
  );
}

// The server names a refused domain `redirect_domain` (the CLI's validation, `redirectDomainsOf`).
const ALIASES = { redirect_domain: "redirect_domains" };

/** Edit a source's flow, optional ingest fields and redirect domains (the code and client stay). */
function EditSource({ source }: { source: Source }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="secondary" size="small" aria-label={`Edit ${source.code}`}>
          Edit
        </Button>
      }
      title={`Edit source ${source.code}`}
    >
      <EditSourceForm source={source} onDone={() => setOpen(false)} />
    </Dialog>
  );
}

/** Lives inside the dialog: closing it forgets what was typed and the last failure. */
function EditSourceForm({ source, onDone }: { source: Source; onDone: () => void }) {
  const trpc = useTRPC();
  const update = useConsoleMutation(trpc.sources.update.mutationOptions(), { invalidates: [trpc.sources], onSuccess: onDone });
  const { register, control, onSubmit, errorOf, general, pending } = useConsoleForm({
    schema: sourceUpdateInput,
    // redirect_domains is read from the textarea's lines (its `setValueAs`).
    defaultValues: { code: source.code, flow: source.flow, optional_ingest_fields: source.optional_ingest_fields, redirect_domains: undefined },
    mutation: update,
    aliases: ALIASES,
  });
  return (
    <form className={styles.dialogForm} onSubmit={onSubmit} noValidate>
      <FormSelect control={control} name="flow" label="Flow" options={FLOW_OPTIONS} error={errorOf("flow")} />
      <OptionalFields registration={register("optional_ingest_fields")} />
      <DomainsField
        defaultValue={source.redirect_domains}
        error={errorOf("redirect_domains")}
        registration={register("redirect_domains", { setValueAs: linesOf })}
      />
      <FormError message={general} />
      <div className={styles.dialogActions}>
        <SubmitButton pending={pending}>Save source</SubmitButton>
      </div>
    </form>
  );
}

/** decisions §4 `source create`, in the console. */
function CreateSource() {
  const trpc = useTRPC();
  const create = useConsoleMutation(trpc.sources.create.mutationOptions(), { invalidates: [trpc.sources] });
  const { register, control, onSubmit, errorOf, general, done, pending } = useConsoleForm({
    schema: sourceCreateInput,
    defaultValues: { code: "", client_id: "", flow: "embedded", optional_ingest_fields: false, redirect_domains: undefined },
    mutation: create,
    aliases: ALIASES,
    resetOnSuccess: true,
  });
  return (
    <form className="access-form" onSubmit={onSubmit} aria-labelledby="create-source-title" noValidate>
      <h2 id="create-source-title">Create a source</h2>
      <Field label="Code" hint="Lower-case letters, digits, _ or -; prospects are keyed by it and it cannot change." error={errorOf("code")}>
        {(control) => <Input {...control} {...register("code")} maxLength={64} autoComplete="off" spellCheck={false} />}
      </Field>
      <Field label="Client id" hint="The API client whose prospects use this source." error={errorOf("client_id")}>
        {(control) => <Input {...control} {...register("client_id")} maxLength={200} autoComplete="off" spellCheck={false} />}
      </Field>
      <FormSelect control={control} name="flow" label="Flow" options={FLOW_OPTIONS} error={errorOf("flow")} />
      <OptionalFields registration={register("optional_ingest_fields")} />
      <DomainsField defaultValue={[]} error={errorOf("redirect_domains")} registration={register("redirect_domains", { setValueAs: linesOf })} />
      <FormError message={general} />
      {done && <output>Source {done.code} created.</output>}
      <SubmitButton pending={pending} pendingLabel="Creating…">
        Create source
      </SubmitButton>
    </form>
  );
}

const columns: ColumnDef<Source>[] = [
  { accessorKey: "code", header: "Code", enableSorting: true, cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  {
    accessorKey: "client_id",
    header: "Client",
    cell: ({ row }) => (
      <>
        {row.original.client_name ?? "Unknown client"} <code>{row.original.client_id}</code>
      </>
    ),
  },
  { accessorKey: "flow", header: "Flow", enableSorting: true },
  { accessorKey: "optional_ingest_fields", header: "Optional ingest fields", cell: ({ getValue }) => (getValue<boolean>() ? "Yes" : "No") },
  {
    accessorKey: "redirect_domains",
    header: "Redirect domains",
    cell: ({ getValue }) => {
      const domains = getValue<string[]>();
      return domains.length
        ? domains.map((d) => (
            <code key={d} className="merged-from">
              {d}
            </code>
          ))
        : "—";
    },
  },
  {
    id: "actions",
    header: "Actions",
    cell: ({ row }) => (
      <Can permission="access.manage">
        <EditSource source={row.original} />
      </Can>
    ),
  },
];

export function SourcesScreen() {
  const trpc = useTRPC();
  const filters = useUrlFilters(FILTERS);
  const { q, flow } = filters.values;
  const list = useQuery(trpc.sources.list.queryOptions());
  const rows = useMemo(() => {
    const text = q.toLowerCase();
    return list.data?.filter(
      (s) => (!flow || s.flow === flow) && (!text || [s.code, s.client_id, s.client_name ?? ""].some((value) => value.toLowerCase().includes(text))),
    );
  }, [list.data, q, flow]);
  return (
    <>
      <FilterBar key={filters.formKey} label="Search sources" onApply={filters.fromForm} onReset={filters.reset}>
        <TextField label="Code or client" name="q" type="search" defaultValue={q} maxLength={200} />
        <Select label="Flow" name="flow" defaultValue={flow} options={[{ value: "", label: "Any" }, ...FLOW_OPTIONS]} />
      </FilterBar>
      <DataTable
        label="Sources"
        columns={columns}
        data={rows}
        isPending={list.isPending}
        error={list.error}
        empty="No source matches."
        getRowId={(s) => s.code}
      />
      <Can permission="access.manage">
        <CreateSource />
      </Can>
    </>
  );
}
