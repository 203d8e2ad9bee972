"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import {
  Badge,
  type ColumnDef,
  type ConsoleOutputs,
  DataTable,
  FilterBar,
  infiniteTableProps,
  nextIdBelow,
  Select,
  TextField,
  useTRPC,
  useUrlFilters,
} from "../../_ui";
import { oneLine } from "./format";

type Row = ConsoleOutputs["buildings"]["search"][number];

const PAGE = 50;
const FILTERS = { q: "", owner: "", active: "", locked: "" };
const YES_NO_ANY = (yes: string, no: string) => [
  { value: "", label: "Any" },
  { value: "yes", label: yes },
  { value: "no", label: no },
];
const flag = (value: string) => (value === "yes" ? true : value === "no" ? false : undefined);

const columns: ColumnDef<Row>[] = [
  {
    accessorKey: "building_name",
    header: "Building",
    enableSorting: true,
    cell: ({ row }) => <Link href={`/console/buildings/${row.original.id}`}>{row.original.building_name}</Link>,
  },
  { accessorKey: "owner_slug", header: "Owner", enableSorting: true, cell: ({ row }) => `${row.original.owner_name} (${row.original.owner_slug})` },
  { accessorKey: "external_system_id", header: "External id", cell: ({ getValue }) => <code>{getValue<string | null>() ?? "—"}</code> },
  { id: "address", header: "Address", cell: ({ row }) => oneLine(row.original.address) },
  { accessorKey: "unit_count", header: "Units", enableSorting: true },
  { accessorKey: "active", header: "Status", cell: ({ getValue }) => <Badge status={getValue<boolean>() ? "active" : "inactive"} /> },
  {
    accessorKey: "address_locked",
    header: "Address",
    cell: ({ getValue }) => (getValue<boolean>() ? <Badge tone="info">locked</Badge> : <Badge tone="neutral">derived</Badge>),
  },
];

/** Every owner's buildings (decisions §12 Buildings); the filters live in the URL. */
export function BuildingsTable() {
  const trpc = useTRPC();
  const filters = useUrlFilters(FILTERS);
  const { q, owner, active, locked } = filters.values;
  const buildings = useInfiniteQuery(
    trpc.buildings.search.infiniteQueryOptions(
      { query: q || undefined, ownerSlug: owner || undefined, active: flag(active), locked: flag(locked), limit: PAGE },
      { getNextPageParam: nextIdBelow(PAGE) },
    ),
  );
  return (
    <>
      <FilterBar key={filters.formKey} label="Search buildings" onApply={filters.fromForm} onReset={filters.reset}>
        <TextField label="Name, address, owner or external id" name="q" type="search" defaultValue={q} maxLength={200} />
        <TextField label="Owner slug" name="owner" defaultValue={owner} maxLength={200} />
        <Select label="Status" name="active" defaultValue={active} options={YES_NO_ANY("Active", "Inactive")} />
        <Select label="Address" name="locked" defaultValue={locked} options={YES_NO_ANY("Locked", "Derived")} />
      </FilterBar>
      <DataTable label="Buildings" columns={columns} {...infiniteTableProps(buildings)} empty="No buildings match." getRowId={(row) => String(row.id)} />
    </>
  );
}
