"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge, type ColumnDef, type ConsoleOutputs, DataTable, errorMessage, formatDateTime, useCan, useTRPC } from "../../_ui";
import { LatencyChart, ms, percent, SuccessRateChart } from "./charts";

type Overview = ConsoleOutputs["overview"]["deliveries"];
type Endpoint = Overview["failing_endpoints"][number];
type Busy = Overview["endpoints_in_flight"][number];

function Stat({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>
        <strong>{value}</strong>
        {detail && <small>{detail}</small>}
      </dd>
    </div>
  );
}

const endpointColumns = (canReadDeliveries: boolean): ColumnDef<Endpoint>[] => [
  {
    accessorKey: "name",
    header: "Endpoint",
    cell: ({ row }) => (
      <>
        {canReadDeliveries ? (
          <Link href={`/console/deliveries?endpoint_id=${encodeURIComponent(row.original.id)}`}>{row.original.name}</Link>
        ) : (
          row.original.name
        )}
        <br />
        <small className="muted">{row.original.destination_url}</small>
      </>
    ),
  },
  { accessorKey: "owner_slug", header: "Owner", cell: ({ getValue }) => getValue<string | null>() ?? "provider" },
  { accessorKey: "status", header: "Status", cell: ({ getValue }) => <Badge status={getValue<string>()} /> },
  {
    accessorKey: "failed_attempts",
    header: "Failed (24 h)",
    enableSorting: true,
    cell: ({ row }) => `${row.original.failed_attempts} of ${row.original.attempts}`,
  },
  {
    accessorKey: "last_failure_reason",
    header: "Last failure",
    cell: ({ row }) => (
      <span className="cell-text">
        {row.original.last_failure_reason ?? "—"}
        {row.original.last_failure_at && <small className="muted"> · {formatDateTime(row.original.last_failure_at)}</small>}
      </span>
    ),
  },
];

const inFlightColumns = (canReadDeliveries: boolean): ColumnDef<Busy>[] => [
  {
    accessorKey: "name",
    header: "Endpoint",
    cell: ({ row }) => (
      <>
        {canReadDeliveries ? (
          <Link href={`/console/deliveries?endpoint=${encodeURIComponent(row.original.id)}&status=delivering`}>{row.original.name}</Link>
        ) : (
          row.original.name
        )}
        <br />
        <small className="muted">{row.original.destination_url}</small>
      </>
    ),
  },
  { accessorKey: "owner_slug", header: "Owner", cell: ({ getValue }) => getValue<string | null>() ?? "provider" },
  { accessorKey: "status", header: "Status", cell: ({ getValue }) => <Badge status={getValue<string>()} /> },
  { accessorKey: "in_flight", header: "Attempts in flight" },
  { accessorKey: "oldest_since", header: "Oldest since", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
];

/** Figures refresh every 30 seconds while the page is open. */
export function Overview() {
  const trpc = useTRPC();
  const canReadDeliveries = useCan("deliveries.read");
  const query = useQuery({ ...trpc.overview.deliveries.queryOptions(), refetchInterval: 30_000 });
  if (query.error && !query.data) return <p role="alert">Could not load the overview: {errorMessage(query.error)}</p>;
  const data = query.data;
  if (!data) return <p aria-busy="true">Loading…</p>;
  const open = data.open_deliveries;
  return (
    <>
      <h2 className="visually-hidden">Last 24 hours</h2>
      <dl className="stats">
        <Stat label="Success rate (24 h)" value={percent(data.totals.success_rate)} detail={`${data.totals.succeeded} of ${data.totals.attempts} attempts`} />
        <Stat label="p95 latency (24 h)" value={ms(data.totals.p95_ms)} />
        <Stat label="Failed deliveries (24 h)" value={String(data.totals.failed_deliveries)} detail="every attempt used" />
        <Stat
          label="Open deliveries"
          value={String(open.pending + open.delivering + open.retrying + open.rate_limited)}
          detail={`${open.retrying} retrying · ${open.rate_limited} rate limited · ${open.pending + open.delivering} in flight`}
        />
        <Stat label="Queue: jobs due" value={String(data.queue.due)} detail={`${data.queue.running} running · ${data.queue.scheduled} scheduled later`} />
      </dl>
      <div className="charts">
        <SuccessRateChart points={data.hourly} />
        <LatencyChart points={data.hourly} />
      </div>
      {data.queue.due_by_task.length > 0 && (
        <>
          <h2>Jobs due by task</h2>
          <ul className="reasons">
            {data.queue.due_by_task.map((task) => (
              <li key={task.task}>
                <code>{task.task}</code>: {task.due}
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>Failing endpoints</h2>
      <DataTable
        label="Failing endpoints"
        columns={endpointColumns(canReadDeliveries)}
        data={data.failing_endpoints}
        empty="No endpoint failed in the last 24 hours."
        getRowId={(row) => row.id}
      />
      <h2>Attempts in flight</h2>
      <DataTable
        label="Endpoints holding the most attempts in flight"
        columns={inFlightColumns(canReadDeliveries)}
        data={data.endpoints_in_flight}
        empty="No attempt is in flight."
        getRowId={(row) => row.id}
      />
      <p className="muted">Updated {formatDateTime(data.generated_at)}.</p>
    </>
  );
}
