"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { EVENT_NAMES } from "@/features/webhooks/catalog";
import { Badge, Can, type ColumnDef, type ConsoleOutputs, DataTable, FilterBar, formatDateTime, Select, TextField, useTRPC, useUrlFilters } from "../../_ui";
import { BulkRetry } from "./bulk-retry";
import { FILTERS, searchInputOf } from "./filters";

type Row = ConsoleOutputs["webhooks"]["deliveries"]["search"]["deliveries"][number];

const STATUS_OPTIONS = [
  { value: "", label: "Any" },
  ...["pending", "delivering", "delivered", "retrying", "rate_limited", "failed"].map((value) => ({ value, label: value.replace("_", " ") })),
];
const EVENT_OPTIONS = [{ value: "", label: "Any" }, ...EVENT_NAMES.map((value) => ({ value, label: value }))];

const recordOf = (row: Row) =>
  [
    row.policy_number && `policy ${row.policy_number}`,
    row.source_prospect_id && `prospect ${row.source_prospect_id}`,
    row.move_out_id && `move-out ${row.move_out_id}`,
  ]
    .filter(Boolean)
    .join(" · ") || "—";

const columns: ColumnDef<Row>[] = [
  {
    accessorKey: "created_at",
    header: "Created",
    cell: ({ row }) => <Link href={`/console/deliveries/${row.original.id}`}>{formatDateTime(row.original.created_at)}</Link>,
  },
  { accessorKey: "status", header: "Status", cell: ({ getValue }) => <Badge status={getValue<string>()} /> },
  { accessorKey: "event", header: "Event" },
  { accessorKey: "owner_slug", header: "Owner" },
  {
    id: "endpoint",
    header: "Endpoint",
    cell: ({ row }) => (
      <span title={row.original.destination_url}>
        {row.original.endpoint_name}
        {row.original.endpoint_status !== "active" ? ` (${row.original.endpoint_status})` : ""}
        {row.original.endpoint_deleted ? " (deleted)" : ""}
      </span>
    ),
  },
  { id: "record", header: "About", cell: ({ row }) => recordOf(row.original) },
  { accessorKey: "attempt_number", header: "Attempts" },
  { accessorKey: "last_attempt_failure_reason", header: "Last failure", cell: ({ getValue }) => getValue<string | null>() ?? "—" },
  { id: "id", header: "Delivery id", cell: ({ row }) => <Link href={`/console/deliveries/${row.original.id}`}>{row.original.id}</Link> },
];

/** Search across owners; every filter is in the URL, so a view can be shared by its address. */
export function DeliveriesTable() {
  const trpc = useTRPC();
  const filters = useUrlFilters(FILTERS);
  const v = filters.values;
  const input = searchInputOf(v);
  const deliveries = useInfiniteQuery(
    trpc.webhooks.deliveries.search.infiniteQueryOptions({ ...input, limit: 50 }, { getNextPageParam: (last) => last.next_cursor ?? undefined }),
  );
  return (
    <>
      <FilterBar key={filters.formKey} label="Search deliveries" onApply={filters.fromForm} onReset={filters.reset}>
        <TextField label="Owner slug" name="owner" defaultValue={v.owner} maxLength={200} />
        <TextField label="Endpoint id" name="endpoint" defaultValue={v.endpoint} maxLength={100} />
        <Select label="Event" name="event" defaultValue={v.event} options={EVENT_OPTIONS} />
        <Select label="Status" name="status" defaultValue={v.status} options={STATUS_OPTIONS} />
        <TextField label="From (day, UTC)" name="from" type="date" defaultValue={v.from} />
        <TextField label="To (day, UTC)" name="to" type="date" defaultValue={v.to} />
        <TextField label="Partner prospect id" name="prospect" defaultValue={v.prospect} maxLength={200} />
        <TextField label="Policy number" name="policy" defaultValue={v.policy} maxLength={200} />
        <TextField label="Move-out id" name="move_out" inputMode="numeric" defaultValue={v.move_out} maxLength={10} />
      </FilterBar>
      <Can permission="deliveries.bulk_retry">
        <BulkRetry values={v} />
      </Can>
      <DataTable
        label="Deliveries"
        columns={columns}
        data={deliveries.data?.pages.flatMap((page) => page.deliveries)}
        isPending={deliveries.isPending}
        error={deliveries.error}
        empty="No deliveries match."
        getRowId={(row) => row.id}
        loadMore={{ hasMore: Boolean(deliveries.hasNextPage), loading: deliveries.isFetchingNextPage, onLoadMore: () => void deliveries.fetchNextPage() }}
      />
    </>
  );
}
