"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge, type ColumnDef, type ConsoleInputs, type ConsoleOutputs, DataTable, FilterBar, Select, TextField, useTRPC, useUrlFilters } from "../../_ui";
import { day, money, PRODUCT_LABELS } from "./format";

type Row = ConsoleOutputs["policies"]["search"][number];
type Status = ConsoleInputs["policies"]["search"]["status"];
type Product = ConsoleInputs["policies"]["search"]["product_type"];

const FILTERS = { q: "", status: "", owner: "", product: "" };
const STATUS_OPTIONS = [
  { value: "", label: "Any" },
  ...["active", "upcoming", "pending", "expired", "canceled"].map((value) => ({ value, label: value[0].toUpperCase() + value.slice(1) })),
];
const PRODUCT_OPTIONS = [{ value: "", label: "Any" }, ...Object.entries(PRODUCT_LABELS).map(([value, label]) => ({ value, label }))];

const columns: ColumnDef<Row>[] = [
  {
    accessorKey: "policy_number",
    header: "Policy",
    enableSorting: true,
    cell: ({ row }) => <Link href={`/console/policies/${row.original.id}`}>{row.original.policy_number}</Link>,
  },
  { accessorKey: "status", header: "Status", cell: ({ getValue }) => <Badge status={getValue<string>()} /> },
  { accessorKey: "product_type", header: "Product", cell: ({ getValue }) => PRODUCT_LABELS[getValue<string>()] ?? getValue<string>() },
  { accessorKey: "renter", header: "Renter", cell: ({ getValue }) => getValue<string | null>() ?? "—" },
  { accessorKey: "owner_name", header: "Owner", enableSorting: true },
  { id: "unit", header: "Building · unit", cell: ({ row }) => `${row.original.building_name} · ${row.original.unit_name}` },
  { accessorKey: "coverage_amount_cents", header: "Coverage", enableSorting: true, cell: ({ getValue }) => money(getValue<number>()) },
  { id: "period", header: "Period", cell: ({ row }) => `${day(row.original.coverage_start_date)} – ${day(row.original.coverage_end_date)}` },
];

/** Search by policy number, renter or prospect id, owner and product; newest first; the filters are in the URL. */
export function PoliciesTable() {
  const trpc = useTRPC();
  const filters = useUrlFilters(FILTERS);
  const { q, status, owner, product } = filters.values;
  const policies = useQuery(
    trpc.policies.search.queryOptions({
      query: q || undefined,
      status: (status || undefined) as Status,
      owner: owner.trim() || undefined,
      product_type: (product || undefined) as Product,
    }),
  );
  return (
    <>
      <FilterBar key={filters.formKey} label="Search policies" onApply={filters.fromForm} onReset={filters.reset}>
        <TextField label="Policy number, renter or prospect id" name="q" type="search" defaultValue={q} maxLength={200} />
        <Select label="Status" name="status" defaultValue={status} options={STATUS_OPTIONS} />
        <TextField label="Owner slug" name="owner" defaultValue={owner} maxLength={200} />
        <Select label="Product" name="product" defaultValue={product} options={PRODUCT_OPTIONS} />
      </FilterBar>
      <DataTable
        label="Policies"
        columns={columns}
        data={policies.data}
        isPending={policies.isPending}
        error={policies.error}
        empty="No policies match."
        getRowId={(row) => String(row.id)}
      />
    </>
  );
}
