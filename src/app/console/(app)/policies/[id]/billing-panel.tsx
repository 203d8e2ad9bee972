"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import {
  Badge,
  Button,
  Can,
  type ColumnDef,
  ConfirmDialog,
  type ConsoleOutputs,
  DataTable,
  errorMessage,
  Facts,
  formatDateTime,
  useConsoleMutation,
  useTRPC,
} from "../../../_ui";
import { day, money } from "../format";

type Billing = ConsoleOutputs["billing"]["policy"];
type Charge = Billing["charges"][number];
type Delinquency = Billing["delinquencies"][number];

/** An active delinquency reads as a problem (the generic tone of `active` is a healthy green). */
export const delinquencyBadge = (status: Delinquency["status"]) => <Badge status={status} tone={status === "active" ? "danger" : "success"} />;

const chargeColumns: ColumnDef<Charge>[] = [
  {
    id: "period",
    header: "For",
    cell: ({ row }) => (row.original.kind === "settlement" ? "Settlement" : `Month from ${day(row.original.period_start ?? "")}`),
  },
  { accessorKey: "amount_cents", header: "Amount", cell: ({ getValue }) => money(getValue<number>()) },
  {
    accessorKey: "status",
    header: "Status",
    cell: ({ row }) => (
      <>
        <Badge status={row.original.status} />
        {row.original.decline_code && row.original.decline_code !== "card_declined" ? ` ${row.original.decline_code.replaceAll("_", " ")}` : ""}
      </>
    ),
  },
  { accessorKey: "processor_charge_id", header: "Processor reference", cell: ({ getValue }) => <code>{getValue<string | null>() ?? "—"}</code> },
  { accessorKey: "created_at", header: "Attempted", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
];

const delinquencyColumns: ColumnDef<Delinquency>[] = [
  { accessorKey: "delinquency_id", header: "Delinquency", cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  { accessorKey: "status", header: "Status", cell: ({ getValue }) => delinquencyBadge(getValue<Delinquency["status"]>()) },
  { accessorKey: "amount_cents", header: "Outstanding", cell: ({ getValue }) => money(getValue<number>()) },
  { accessorKey: "settled_cents", header: "Settled", cell: ({ getValue }) => (getValue<number | null>() === null ? "—" : money(getValue<number>())) },
  { accessorKey: "opened_at", header: "Opened", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  { accessorKey: "resolved_at", header: "Resolved", cell: ({ getValue }) => (getValue<string | null>() ? formatDateTime(getValue<string>()) : "—") },
];

const BRANDS: Record<string, string> = { visa: "Visa", mastercard: "Mastercard", amex: "American Express", discover: "Discover" };
const cardLabel = (method: NonNullable<Billing["payment_method"]>) => `${BRANDS[method.brand] ?? "Card"} ending ${method.last4}`;

/** Charges what is outstanding to the card kept at purchase, after a confirmation (decisions §4 `billing settle`). */
function SettleAction({ billing, open, onSettled }: { billing: Billing; open: Delinquency; onSettled: (message: string | undefined) => void }) {
  const trpc = useTRPC();
  const settle = useConsoleMutation(trpc.billing.settle.mutationOptions(), {
    invalidates: [trpc.billing],
    onSuccess: (result) =>
      onSettled(result.settled_cents ? `Settled: ${money(result.settled_cents)} charged, ${result.delinquency_id} resolved.` : "Nothing was outstanding."),
  });
  const card = billing.payment_method ? `the ${cardLabel(billing.payment_method)}` : "the card kept at purchase";
  return (
    <ConfirmDialog
      trigger={<Button>Settle</Button>}
      title={`Settle ${money(open.amount_cents)} for policy ${billing.policy_number}?`}
      description={`Charges ${money(open.amount_cents)} to ${card}. If it is paid, ${open.delinquency_id} is resolved and the partner is told (delinquency.resolved); if it is declined, nothing changes: the declined attempt is listed under Charges.`}
      actionLabel={`Charge ${money(open.amount_cents)}`}
      pending={settle.isPending}
      error={settle.error ? errorMessage(settle.error) : undefined}
      onConfirm={() => {
        onSettled(undefined);
        return settle.mutateAsync({ policyId: billing.policy_id });
      }}
    />
  );
}

/** The policy page's billing (docs/decisions.md, "Billing and delinquencies"): the schedule, every charge, every delinquency, and Settle. */
export function BillingPanel({ policyId }: { policyId: number }) {
  const trpc = useTRPC();
  const { data: billing, error, isPending } = useQuery(trpc.billing.policy.queryOptions({ policyId }));
  const open = billing?.delinquencies.find((row) => row.status === "active");
  // Kept here: the Settle action goes away with the delinquency it resolved.
  const [settled, setSettled] = useState<string>();
  return (
    <section aria-labelledby="billing-title">
      <h2 id="billing-title">Billing</h2>
      {error && <p role="alert">{errorMessage(error)}</p>}
      {isPending && <p aria-busy="true">Loading…</p>}
      {billing && (
        <>
          <Facts
            items={[
              ["Paid", billing.cadence === "monthly" ? `${money(billing.premium_cents)} per month` : "Upfront, at purchase"],
              ["Card on file", billing.payment_method ? cardLabel(billing.payment_method) : "—"],
              ["Next charge", billing.next_charge_on ? day(billing.next_charge_on) : "—"],
              ["Outstanding", open ? <strong key="o">{money(open.amount_cents)}</strong> : money(0)],
            ]}
          />
          {open && (
            <div role="status">
              <p>
                {delinquencyBadge("active")} <code>{open.delinquency_id}</code>: {money(open.amount_cents)} outstanding since {formatDateTime(open.opened_at)}.
                Renewal is blocked until it is settled.
              </p>
              <Can permission="policies.manage">
                <SettleAction billing={billing} open={open} onSettled={setSettled} />
              </Can>
            </div>
          )}
          {settled && (
            <p>
              <output>{settled}</output>
            </p>
          )}
          <h3>Delinquencies</h3>
          <DataTable
            label="Delinquencies"
            columns={delinquencyColumns}
            data={billing.delinquencies}
            empty="No delinquencies."
            getRowId={(row) => row.delinquency_id}
          />
          <h3>Charges</h3>
          <DataTable
            label="Charges"
            columns={chargeColumns}
            data={billing.charges}
            empty={billing.cadence === "monthly" ? "No monthly charge yet: the first month was paid at purchase." : "Paid upfront: no monthly charges."}
            getRowId={(row) => String(row.id)}
          />
        </>
      )}
    </section>
  );
}
