"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge, type ColumnDef, type ConsoleOutputs, DataTable, formatDateTime, useTRPC } from "../../../_ui";

type Row = ConsoleOutputs["webhooks"]["deliveries"]["search"]["deliveries"][number];

const columns: ColumnDef<Row>[] = [
  {
    accessorKey: "created_at",
    header: "Created",
    cell: ({ row }) => <Link href={`/console/deliveries/${row.original.id}`}>{formatDateTime(row.original.created_at)}</Link>,
  },
  { accessorKey: "event", header: "Event" },
  { accessorKey: "status", header: "Status", cell: ({ getValue }) => <Badge status={getValue<string>()} /> },
  { accessorKey: "endpoint_name", header: "Endpoint" },
  { accessorKey: "attempt_number", header: "Attempts" },
];

const LIMIT = 50;

/** The webhook deliveries about this policy: the deliveries console's search by policy number. */
export function PolicyDeliveries({ policyNumber }: { policyNumber: string }) {
  const trpc = useTRPC();
  const deliveries = useQuery(trpc.webhooks.deliveries.search.queryOptions({ policy_number: policyNumber, limit: LIMIT }));
  const all = `/console/deliveries?policy=${encodeURIComponent(policyNumber)}`;
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <DataTable
        label="Deliveries about this policy"
        columns={columns}
        data={deliveries.data?.deliveries}
        isPending={deliveries.isPending}
        error={deliveries.error}
        empty="No webhook deliveries about this policy."
        getRowId={(row) => row.id}
      />
      {deliveries.data?.next_cursor && (
        <p>
          Showing the newest {LIMIT}. <Link href={all}>All deliveries about this policy</Link>
        </p>
      )}
    </section>
  );
}
