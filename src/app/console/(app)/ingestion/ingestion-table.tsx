"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge, type ColumnDef, type ConsoleOutputs, DataTable, FilterBar, formatDateTime, Select, useTRPC, useUrlFilters } from "../../_ui";

type Row = ConsoleOutputs["ingestion"]["events"][number];
type Status = Row["status"];

const FILTERS = { status: "rejected" };
const STATUS_OPTIONS = [
  { value: "rejected", label: "Rejected" },
  { value: "skipped", label: "Skipped" },
  { value: "applied", label: "Applied" },
  { value: "pending", label: "Pending" },
  { value: "all", label: "All" },
];

const columns: ColumnDef<Row>[] = [
  { accessorKey: "received_at", header: "Received", enableSorting: true, cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  { accessorKey: "status", header: "Status", cell: ({ getValue }) => <Badge status={getValue<string>()} /> },
  { accessorKey: "type", header: "Type", cell: ({ getValue }) => getValue<string | null>() ?? "—" },
  { accessorKey: "owner_slug", header: "Owner", enableSorting: true, cell: ({ getValue }) => getValue<string | null>() ?? "—" },
  {
    accessorKey: "source_prospect_id",
    header: "Prospect",
    cell: ({ getValue }) => {
      const id = getValue<string | null>();
      return id ? <Link href={`/console/prospects?source_prospect_id=${encodeURIComponent(id)}`}>{id}</Link> : "—";
    },
  },
  { accessorKey: "client_id", header: "Client", cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  {
    accessorKey: "reasons",
    header: "Reasons",
    cell: ({ getValue }) => {
      const reasons = getValue<Row["reasons"]>();
      if (!reasons) return "—";
      return (
        <ul className="reasons cell-text">
          {Object.entries(reasons).map(([field, messages]) => (
            <li key={field}>
              <code>{field}</code>: {messages.join(", ")}
            </li>
          ))}
        </ul>
      );
    },
  },
];

/** Ingested events, rejected ones first with their reasons (decisions §8); the status is in the URL. */
export function IngestionTable() {
  const trpc = useTRPC();
  const filters = useUrlFilters(FILTERS);
  const status = filters.values.status;
  const events = useQuery(trpc.ingestion.events.queryOptions({ status: status === "all" ? undefined : (status as Status) }));
  return (
    <>
      <FilterBar key={filters.formKey} label="Filter ingested events" onApply={filters.fromForm}>
        <Select label="Status" value={status} onValueChange={(value) => filters.set({ status: value })} options={STATUS_OPTIONS} />
      </FilterBar>
      <DataTable
        label="Ingested events"
        columns={columns}
        data={events.data}
        isPending={events.isPending}
        error={events.error}
        empty={`No ${status === "all" ? "" : `${status} `}events.`}
        getRowId={(row) => String(row.id)}
      />
    </>
  );
}
