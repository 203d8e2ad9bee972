"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useMemo, useState } from "react";
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
  fieldErrorsOf,
  Input,
  Select,
  SubmitButton,
  TextField,
  useTRPC,
  useUrlFilters,
} from "../../../_ui";
import styles from "../../../_ui/ui.module.css";
import { generalErrorOf, linesOf } from "../form-errors";

type Source = ConsoleOutputs["sources"]["list"][number];

const FILTERS = { q: "", flow: "" };
const FLOW_OPTIONS = [
  { value: "embedded", label: "Embedded" },
  { value: "expedited", label: "Expedited" },
];
const DOMAINS_HINT = "One per line: a domain name such as apply.example.com or *.example.com (staging also accepts localhost).";

function useInvalidate() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: trpc.sources.pathKey() }), queryClient.invalidateQueries({ queryKey: trpc.audit.pathKey() })]);
}

function DomainsField({ defaultValue, error }: { defaultValue: string[]; error?: string[] }) {
  return (
    <Field label="Redirect domains" hint={DOMAINS_HINT} error={error?.join("; ")}>
      {(control) => <textarea {...control} name="redirect_domains" rows={3} className={styles.input} defaultValue={defaultValue.join("\n")} />}
    </Field>
  );
}

function OptionalFields({ defaultChecked }: { defaultChecked: boolean }) {
  return (
    <label className="checkbox">
      <input type="checkbox" name="optional_ingest_fields" defaultChecked={defaultChecked} />
      Ingested events may omit optional fields
    </label>
  );
}

/** Edit a source's flow, optional ingest fields and redirect domains (the code and client stay). */
function EditSource({ source }: { source: Source }) {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  const [open, setOpen] = useState(false);
  const update = useMutation(trpc.sources.update.mutationOptions({ onSuccess: () => invalidate().then(() => setOpen(false)) }));
  const errors = fieldErrorsOf(update.error);
  const general = generalErrorOf(update.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    update.mutate({
      code: source.code,
      flow: data.get("flow") === "expedited" ? "expedited" : "embedded",
      optional_ingest_fields: data.get("optional_ingest_fields") === "on",
      redirect_domains: linesOf(data.get("redirect_domains")),
    });
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) update.reset();
      }}
      trigger={
        <Button variant="secondary" size="small" aria-label={`Edit ${source.code}`}>
          Edit
        </Button>
      }
      title={`Edit source ${source.code}`}
    >
      <form className={styles.dialogForm} onSubmit={submit} noValidate>
        <Select label="Flow" name="flow" defaultValue={source.flow} options={FLOW_OPTIONS} />
        <OptionalFields defaultChecked={source.optional_ingest_fields} />
        <DomainsField defaultValue={source.redirect_domains} error={errors.redirect_domain} />
        <FormError message={general} />
        <div className={styles.dialogActions}>
          <SubmitButton pending={update.isPending}>Save source</SubmitButton>
        </div>
      </form>
    </Dialog>
  );
}

/** decisions §4 `source create`, in the console. */
function CreateSource() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  const [formKey, setFormKey] = useState(0);
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation(
    trpc.sources.create.mutationOptions({
      onSuccess: (source) =>
        invalidate().then(() => {
          setCreated(source.code);
          setFormKey((key) => key + 1);
        }),
    }),
  );
  const errors = fieldErrorsOf(create.error);
  const general = generalErrorOf(create.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setCreated(null);
    const data = new FormData(event.currentTarget);
    create.mutate({
      code: String(data.get("code") ?? ""),
      client_id: String(data.get("client_id") ?? ""),
      flow: data.get("flow") === "expedited" ? "expedited" : "embedded",
      optional_ingest_fields: data.get("optional_ingest_fields") === "on",
      redirect_domains: linesOf(data.get("redirect_domains")),
    });
  };
  return (
    <form key={formKey} className="access-form" onSubmit={submit} aria-labelledby="create-source-title" noValidate>
      <h2 id="create-source-title">Create a source</h2>
      <Field label="Code" hint="Lower-case letters, digits, _ or -; prospects are keyed by it and it cannot change." error={errors.code?.join("; ")}>
        {(control) => <Input {...control} name="code" maxLength={64} autoComplete="off" spellCheck={false} />}
      </Field>
      <Field label="Client id" hint="The API client whose prospects use this source." error={errors.client_id?.join("; ")}>
        {(control) => <Input {...control} name="client_id" maxLength={200} autoComplete="off" spellCheck={false} />}
      </Field>
      <Select label="Flow" name="flow" defaultValue="embedded" options={FLOW_OPTIONS} />
      <OptionalFields defaultChecked={false} />
      <DomainsField defaultValue={[]} error={errors.redirect_domain} />
      <FormError message={general} />
      {created && <output>Source {created} created.</output>}
      <SubmitButton pending={create.isPending} pendingLabel="Creating…">
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
