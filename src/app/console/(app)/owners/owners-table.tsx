"use client";
import { useQuery } from "@tanstack/react-query";
import { Badge, type ColumnDef, type ConsoleOutputs, DataTable, useTRPC } from "../../_ui";

type Owner = ConsoleOutputs["owners"]["list"][number];

const money = (cents: number | null) => (cents === null ? "—" : `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`);

const columns: ColumnDef<Owner>[] = [
  { accessorKey: "name", header: "Name", enableSorting: true },
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

export function OwnersTable() {
  const trpc = useTRPC();
  const owners = useQuery(trpc.owners.list.queryOptions());
  return (
    <DataTable
      label="Property owners"
      columns={columns}
      data={owners.data}
      isPending={owners.isPending}
      error={owners.error}
      empty="No property owners yet."
      getRowId={(owner) => owner.owner_slug}
    />
  );
}
