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
import { KIND_LABELS, STATUS_LABELS, STATUS_TONES } from "./kinds";

type Row = ConsoleOutputs["messages"]["search"][number];
type Input = ConsoleInputs["messages"]["search"];

const PAGE = 50;
const FILTERS = { email: "", policy: "", kind: "", status: "" };
const KIND_OPTIONS = [{ value: "", label: "Any" }, ...Object.entries(KIND_LABELS).map(([value, label]) => ({ value, label }))];
const STATUS_OPTIONS = [{ value: "", label: "Any" }, ...Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label }))];

export function MessageStatus({ status }: { status: Row["status"] }) {
  return <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}

const columns: ColumnDef<Row>[] = [
  { accessorKey: "created_at", header: "Written", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  { accessorKey: "to", header: "To" },
  { accessorKey: "kind", header: "Kind", cell: ({ getValue }) => KIND_LABELS[getValue<string>()] ?? getValue<string>() },
  {
    accessorKey: "subject",
    header: "Subject",
    cell: ({ row }) => <Link href={`/console/messages/${row.original.id}`}>{row.original.subject}</Link>,
  },
  { accessorKey: "status", header: "Status", cell: ({ row }) => <MessageStatus status={row.original.status} /> },
  {
    id: "answer",
    header: "Server's answer",
    cell: ({ row }) => (row.original.last_answer ? <code>{row.original.last_answer}</code> : "—"),
  },
  { accessorKey: "policy_number", header: "Policy", cell: ({ getValue }) => getValue<string | null>() ?? "—" },
];

/** Renter messages newest first; the filters are in the URL so a view can be shared. */
export function MessagesTable() {
  const trpc = useTRPC();
  const filters = useUrlFilters(FILTERS);
  const { email, policy, kind, status } = filters.values;
  const rows = useInfiniteQuery(
    trpc.messages.search.infiniteQueryOptions(
      {
        email: email || undefined,
        policyNumber: policy || undefined,
        kind: (kind || undefined) as Input["kind"],
        status: (status || undefined) as Input["status"],
        limit: PAGE,
      },
      { getNextPageParam: nextIdBelow(PAGE), refetchInterval: 5000 },
    ),
  );
  return (
    <>
      <FilterBar key={filters.formKey} label="Search messages" onApply={filters.fromForm} onReset={filters.reset}>
        <TextField label="Email" name="email" defaultValue={email} maxLength={320} />
        <TextField label="Policy number" name="policy" defaultValue={policy} placeholder="PIS-2026-000001" maxLength={100} />
        <Select label="Kind" name="kind" defaultValue={kind} options={KIND_OPTIONS} />
        <Select label="Status" name="status" defaultValue={status} options={STATUS_OPTIONS} />
      </FilterBar>
      <DataTable label="Messages" columns={columns} {...infiniteTableProps(rows)} empty="No messages match." getRowId={(row) => String(row.id)} />
    </>
  );
}
