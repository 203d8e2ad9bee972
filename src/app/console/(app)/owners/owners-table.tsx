"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge, type ColumnDef, type ConsoleOutputs, DataTable, FilterBar, TextField, useTRPC, useUrlFilters } from "../../_ui";
import { money } from "./format";

type Owner = ConsoleOutputs["owners"]["list"][number];

const FILTERS = { q: "" };

const columns: ColumnDef<Owner>[] = [
  {
    accessorKey: "name",
    header: "Name",
    enableSorting: true,
    cell: ({ row }) => <Link href={`/console/owners/${encodeURIComponent(row.original.owner_slug)}`}>{row.original.name}</Link>,
  },
  { accessorKey: "owner_slug", header: "Slug", enableSorting: true, cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  { accessorKey: "external_org_id", header: "External org id" },
  {
    accessorKey: "managed",
    header: "Kind",
    cell: ({ getValue }) => (getValue<boolean>() ? <Badge tone="info">Managed by the service</Badge> : <Badge tone="neutral">Partner-created</Badge>),
  },
  { accessorKey: "purchase_flow_enabled", header: "Purchase flow", cell: ({ getValue }) => (getValue<boolean>() ? "Enabled" : "Off") },
  { accessorKey: "max_coverage_amount_cents", header: "Coverage ceiling", cell: ({ getValue }) => money(getValue<number | null>()) },
  {
    accessorKey: "created_at",
    header: "Created",
    enableSorting: true,
    cell: ({ getValue }) => new Date(getValue<string>()).toLocaleDateString("en-US"),
  },
];

/** Owners, newest first, searched by name, slug or external org id (the search lives in the URL). */
export function OwnersTable() {
  const trpc = useTRPC();
  const filters = useUrlFilters(FILTERS);
  const { q } = filters.values;
  const owners = useQuery(trpc.owners.list.queryOptions({ query: q || undefined }));
  return (
    <>
      <FilterBar key={filters.formKey} label="Search owners" onApply={filters.fromForm} onReset={filters.reset}>
        <TextField label="Name, slug or external org id" name="q" type="search" defaultValue={q} maxLength={200} />
      </FilterBar>
      <DataTable
        label="Property owners"
        columns={columns}
        data={owners.data}
        isPending={owners.isPending}
        error={owners.error}
        empty={q ? "No owner matches." : "No property owners yet."}
        getRowId={(owner) => owner.owner_slug}
      />
    </>
  );
}
