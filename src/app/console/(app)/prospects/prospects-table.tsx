"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import {
  Badge,
  type ColumnDef,
  type ConsoleInputs,
  type ConsoleOutputs,
  DataTable,
  FilterBar,
  formatDateTime,
  infiniteTableProps,
  nextIdBelow,
  Select,
  TextField,
  useTRPC,
  useUrlFilters,
} from "../../_ui";

type Row = ConsoleOutputs["prospects"]["search"][number];
type Status = ConsoleInputs["prospects"]["search"]["status"];

const PAGE = 50;
const FILTERS = { owner: "", source_prospect_id: "", email: "", status: "" };
const STATUS_OPTIONS = [
  { value: "", label: "Any" },
  { value: "incomplete", label: "Incomplete" },
  { value: "processing", label: "Processing" },
  { value: "ready", label: "Ready" },
  { value: "error", label: "Error" },
];

const columns: ColumnDef<Row>[] = [
  {
    accessorKey: "source_prospect_id",
    header: "Prospect",
    enableSorting: true,
    cell: ({ row }) => <Link href={`/console/prospects/${row.original.id}`}>{row.original.source_prospect_id}</Link>,
  },
  { accessorKey: "status", header: "Status", cell: ({ getValue }) => <Badge status={getValue<string>()} /> },
  {
    accessorKey: "eligible",
    header: "Eligibility",
    cell: ({ getValue }) => {
      const eligible = getValue<boolean | null>();
      return eligible === null ? "—" : <Badge status={eligible ? "eligible" : "ineligible"} />;
    },
  },
  {
    id: "renter",
    header: "Renter",
    cell: ({ row }) => (
      <>
        {row.original.name ?? "—"}
        {row.original.email && (
          <>
            <br />
            <small className="muted">{row.original.email}</small>
          </>
        )}
      </>
    ),
  },
  {
    accessorKey: "owner_name",
    header: "Owner",
    enableSorting: true,
    cell: ({ row }) => (
      <>
        {row.original.owner_name}
        <br />
        <small className="muted">{row.original.owner_slug}</small>
      </>
    ),
  },
  { accessorKey: "source", header: "Source", cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  { id: "unit", header: "Building · unit", cell: ({ row }) => (row.original.building ? `${row.original.building} · ${row.original.unit ?? "—"}` : "—") },
  { accessorKey: "updated_at", header: "Updated", enableSorting: true, cell: ({ getValue }) => formatDateTime(getValue<string>()) },
];

/** Prospects across owners, newest first; the filters are in the URL. */
export function ProspectsTable() {
  const trpc = useTRPC();
  const filters = useUrlFilters(FILTERS);
  const { owner, source_prospect_id, email, status } = filters.values;
  const rows = useInfiniteQuery(
    trpc.prospects.search.infiniteQueryOptions(
      {
        owner: owner || undefined,
        source_prospect_id: source_prospect_id || undefined,
        email: email || undefined,
        status: (status || undefined) as Status,
        limit: PAGE,
      },
      { getNextPageParam: nextIdBelow(PAGE) },
    ),
  );
  return (
    <>
      <FilterBar key={filters.formKey} label="Search prospects" onApply={filters.fromForm} onReset={filters.reset}>
        <TextField label="Owner slug or external org id" name="owner" defaultValue={owner} maxLength={200} />
        <TextField label="Partner prospect id" name="source_prospect_id" defaultValue={source_prospect_id} maxLength={200} />
        <TextField label="Email" name="email" type="search" defaultValue={email} maxLength={320} />
        <Select label="Status" name="status" defaultValue={status} options={STATUS_OPTIONS} />
      </FilterBar>
      <DataTable label="Prospects" columns={columns} {...infiniteTableProps(rows)} empty="No prospects match." getRowId={(row) => String(row.id)} />
    </>
  );
}
