"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import {
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
import { delinquencyBadge } from "../policies/[id]/billing-panel";
import { money } from "../policies/format";

type Row = ConsoleOutputs["billing"]["delinquencies"][number];
type Status = ConsoleInputs["billing"]["delinquencies"]["status"];

const PAGE = 50;
const FILTERS = { status: "", owner: "" };
const STATUS_OPTIONS = [
  { value: "", label: "Any" },
  { value: "active", label: "Active" },
  { value: "resolved", label: "Resolved" },
];

const columns: ColumnDef<Row>[] = [
  { accessorKey: "delinquency_id", header: "Delinquency", cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  {
    accessorKey: "policy_number",
    header: "Policy",
    cell: ({ row }) => <Link href={`/console/policies/${row.original.policy_id}`}>{row.original.policy_number}</Link>,
  },
  { id: "owner", header: "Owner", cell: ({ row }) => `${row.original.owner_name} (${row.original.owner_slug})` },
  { accessorKey: "status", header: "Status", cell: ({ getValue }) => delinquencyBadge(getValue<Row["status"]>()) },
  { accessorKey: "amount_cents", header: "Outstanding", cell: ({ getValue }) => money(getValue<number>()) },
  { accessorKey: "settled_cents", header: "Settled", cell: ({ getValue }) => (getValue<number | null>() === null ? "—" : money(getValue<number>())) },
  { accessorKey: "opened_at", header: "Opened", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  { accessorKey: "resolved_at", header: "Resolved", cell: ({ getValue }) => (getValue<string | null>() ? formatDateTime(getValue<string>()) : "—") },
];

/** Missed premium payments across owners, newest first (docs/decisions.md, "Billing and delinquencies"); the filters are in the URL. */
export function DelinquenciesTable() {
  const trpc = useTRPC();
  const filters = useUrlFilters(FILTERS);
  const { status, owner } = filters.values;
  const rows = useInfiniteQuery(
    trpc.billing.delinquencies.infiniteQueryOptions(
      { status: (status || undefined) as Status, owner: owner || undefined, limit: PAGE },
      { getNextPageParam: nextIdBelow(PAGE) },
    ),
  );
  return (
    <>
      <FilterBar key={filters.formKey} label="Search delinquencies" onApply={filters.fromForm} onReset={filters.reset}>
        <Select label="Status" name="status" defaultValue={status} options={STATUS_OPTIONS} />
        <TextField label="Owner slug" name="owner" defaultValue={owner} maxLength={100} />
      </FilterBar>
      <DataTable label="Delinquencies" columns={columns} {...infiniteTableProps(rows)} empty="No delinquencies match." getRowId={(row) => String(row.id)} />
    </>
  );
}
