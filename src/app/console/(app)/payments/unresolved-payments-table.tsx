"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge, type ColumnDef, type ConsoleOutputs, DataTable, errorMessage, formatDateTime, useTRPC } from "../../_ui";
import { money } from "../policies/format";

type Row = ConsoleOutputs["payments"]["unresolved"][number];

const columns: ColumnDef<Row>[] = [
  {
    accessorKey: "subject",
    header: "For",
    cell: ({ row }) =>
      row.original.policy ? (
        <Link href={`/console/policies/${row.original.policy.id}`}>Policy {row.original.policy.policy_number}</Link>
      ) : (
        <code>{row.original.subject ?? "—"}</code>
      ),
  },
  { accessorKey: "amount_cents", header: "Amount", cell: ({ getValue }) => money(getValue<number>()) },
  { accessorKey: "status", header: "Status", cell: ({ getValue }) => <Badge status={getValue<string>()} /> },
  {
    accessorKey: "processor_id",
    header: "Processor",
    cell: ({ row }) =>
      row.original.dashboard_url ? (
        <a
          href={row.original.dashboard_url}
          target="_blank"
          rel="noreferrer noopener"
          aria-label={`Payment ${row.original.processor_id} in the processor's dashboard (opens in a new tab)`}
        >
          <code>{row.original.processor_id}</code>
        </a>
      ) : (
        <code>{row.original.processor_id}</code>
      ),
  },
  { accessorKey: "created_at", header: "Created", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
];

/**
 * Payments whose outcome is still unknown an hour after they were created (decisions §18
 * Reconciliation): `payment__reconcile` asks the processor every 5 minutes after 10; what it could
 * not resolve is listed here, oldest first, to check in the processor's dashboard.
 */
export function UnresolvedPaymentsTable() {
  const trpc = useTRPC();
  const { data, error, isPending } = useQuery(trpc.payments.unresolved.queryOptions());
  return (
    <>
      <p className="muted">
        Payments still undecided an hour after they were created, which reconciliation (every 5 minutes) could not resolve. Check each in the processor's
        dashboard.
      </p>
      {error && <p role="alert">{errorMessage(error)}</p>}
      {isPending && <p aria-busy="true">Loading…</p>}
      {data && <DataTable label="Unresolved payments" columns={columns} data={data} empty="No unresolved payment." getRowId={(row) => row.id} />}
    </>
  );
}
