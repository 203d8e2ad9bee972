"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ALL_SCOPES } from "@/features/auth/console/scopes-list";
import { Badge, Can, type ColumnDef, type ConsoleOutputs, DataTable, FilterBar, formatDateTime, Select, TextField, useTRPC, useUrlFilters } from "../../../_ui";
import css from "../access.module.css";
import { CreateClient } from "./create-client";

type Row = ConsoleOutputs["accessClients"]["search"][number];

const FILTERS = { q: "", gateway: "", provider: "" };

export const scopeList = (scopes: string[]) => (
  <span className={css.scopes}>
    {scopes.map((scope) => (
      <code key={scope}>{scope}</code>
    ))}
  </span>
);

const columns: ColumnDef<Row>[] = [
  {
    accessorKey: "name",
    header: "Name",
    enableSorting: true,
    cell: ({ row }) => <Link href={`/console/access/clients/${encodeURIComponent(row.original.client_id)}`}>{row.original.name}</Link>,
  },
  { accessorKey: "client_id", header: "Client id", cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  { accessorKey: "gateway", header: "Gateway", enableSorting: true },
  { accessorKey: "provider_code", header: "Provider", cell: ({ getValue }) => getValue<string | null>() ?? "—" },
  {
    accessorKey: "scopes",
    header: "Scopes",
    cell: ({ row }) =>
      row.original.scopes.length === ALL_SCOPES[row.original.gateway].length ? `all ${row.original.scopes.length}` : scopeList(row.original.scopes),
  },
  { accessorKey: "require_signature", header: "Signature", cell: ({ getValue }) => (getValue<boolean>() ? "required" : "optional") },
  { accessorKey: "owner_grants", header: "Owners", enableSorting: true },
  { accessorKey: "created_at", header: "Created", enableSorting: true, cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  { accessorKey: "disabled_at", header: "Status", cell: ({ getValue }) => <Badge status={getValue<string | null>() ? "disabled" : "active"} /> },
];

/** API clients (docs/decisions.md, "Console: access management, part A"): search by name or client id, gateway and provider; the filters live in the URL. */
export function ClientsScreen() {
  const trpc = useTRPC();
  const filters = useUrlFilters(FILTERS);
  const { q, gateway, provider } = filters.values;
  const clients = useQuery(
    trpc.accessClients.search.queryOptions({
      query: q || undefined,
      gateway: gateway === "partner" || gateway === "ingestion" ? gateway : undefined,
      provider: provider || undefined,
    }),
  );
  return (
    <>
      <Can permission="access.manage">
        <p>
          <CreateClient />
        </p>
      </Can>
      <FilterBar key={filters.formKey} label="Search API clients" onApply={filters.fromForm} onReset={filters.reset}>
        <TextField label="Name or client id" name="q" type="search" defaultValue={q} maxLength={200} />
        <Select
          label="Gateway"
          name="gateway"
          defaultValue={gateway}
          options={[
            { value: "", label: "Any" },
            { value: "partner", label: "Partner API" },
            { value: "ingestion", label: "Event ingestion" },
          ]}
        />
        <TextField label="Provider code" name="provider" defaultValue={provider} maxLength={64} />
      </FilterBar>
      <DataTable
        label="API clients"
        columns={columns}
        data={clients.data}
        isPending={clients.isPending}
        error={clients.error}
        empty="No clients match."
        getRowId={(row) => row.client_id}
      />
    </>
  );
}
