"use client";
import { useQuery } from "@tanstack/react-query";
import { Badge, type ColumnDef, type ConsoleOutputs, DataTable, errorMessage, formatDateTime, useTRPC } from "../../../_ui";
import { money } from "../format";
import styles from "./policy.module.css";

type Payments = ConsoleOutputs["payments"]["policy"];
type Payment = Payments["payments"][number];
type Refund = Payments["refunds"][number];
type Dispute = Payments["disputes"][number];

const BRANDS: Record<string, string> = { visa: "Visa", mastercard: "Mastercard", amex: "American Express", discover: "Discover" };
const DISPUTE_TONES: Record<string, "success" | "danger" | "warning" | "neutral"> = {
  won: "success",
  lost: "danger",
  warning_closed: "neutral",
  prevented: "neutral",
};
const words = (value: string) => value.replaceAll("_", " ");

/** The processor's id, linked to its dashboard page when it has one (Stripe; `/test/` on test keys). Simulated ids are not links. */
function ProcessorId({ id, url, label }: { id: string | null; url: string | null; label: string }) {
  if (!id) return <>—</>;
  if (!url) return <code>{id}</code>;
  return (
    <a href={url} target="_blank" rel="noreferrer noopener" aria-label={`${label} ${id} in the processor's dashboard (opens in a new tab)`}>
      <code>{id}</code>
    </a>
  );
}

const paymentColumns: ColumnDef<Payment>[] = [
  { accessorKey: "kind", header: "For", cell: ({ getValue }) => (getValue<string>() === "enrollment" ? "Purchase" : "Monthly premium") },
  { accessorKey: "amount_cents", header: "Amount", cell: ({ getValue }) => money(getValue<number>()) },
  {
    accessorKey: "status",
    header: "Status",
    cell: ({ row }) => (
      <>
        <Badge status={row.original.status} />
        {row.original.decline_code ? ` ${words(row.original.decline_code)}` : ""}
      </>
    ),
  },
  {
    accessorKey: "processor_id",
    header: "Processor",
    cell: ({ row }) => (
      <span className={styles.processor}>
        {row.original.processor} <ProcessorId id={row.original.processor_id} url={row.original.dashboard_url} label="Payment" />
      </span>
    ),
  },
  {
    accessorKey: "card",
    header: "Card",
    cell: ({ row }) => (row.original.card ? `${BRANDS[row.original.card.brand] ?? "Card"} ending ${row.original.card.last4}` : "—"),
  },
  { accessorKey: "created_at", header: "Created", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
];

const refundColumns: ColumnDef<Refund>[] = [
  { accessorKey: "amount_cents", header: "Amount", cell: ({ getValue }) => money(getValue<number>()) },
  {
    accessorKey: "status",
    header: "Status",
    cell: ({ row }) => (
      <>
        <Badge status={row.original.status} />
        {row.original.failure_reason ? ` ${row.original.failure_reason}` : ""}
      </>
    ),
  },
  {
    accessorKey: "processor_refund_id",
    header: "Processor",
    cell: ({ row }) => (
      <span className={styles.processor}>
        {row.original.processor} <ProcessorId id={row.original.processor_refund_id} url={row.original.dashboard_url} label="Refund" />
      </span>
    ),
  },
  { accessorKey: "created_at", header: "Asked", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  { accessorKey: "updated_at", header: "Last change", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
];

const disputeColumns: ColumnDef<Dispute>[] = [
  { accessorKey: "amount_cents", header: "Amount", cell: ({ getValue }) => money(getValue<number>()) },
  { accessorKey: "reason", header: "Reason", cell: ({ getValue }) => words(getValue<string>()) },
  {
    accessorKey: "status",
    header: "Status",
    cell: ({ row }) => <Badge status={row.original.status} tone={row.original.open ? "warning" : (DISPUTE_TONES[row.original.status] ?? "neutral")} />,
  },
  {
    accessorKey: "processor_dispute_id",
    header: "Processor",
    cell: ({ row }) => (
      <span className={styles.processor}>
        {row.original.processor} <ProcessorId id={row.original.processor_dispute_id} url={row.original.dashboard_url} label="Dispute" />
      </span>
    ),
  },
  { accessorKey: "opened_at", header: "Opened", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  { accessorKey: "closed_at", header: "Closed", cell: ({ getValue }) => (getValue<string | null>() ? formatDateTime(getValue<string>()) : "—") },
];

/** `authentication_required` (decisions §18 Monthly premiums): the bank wants the renter present, so staff send this link. */
function OnSessionPay({ pay }: { pay: NonNullable<Payments["on_session_pay"]> }) {
  return (
    <div role="status" className={styles.notice}>
      <p>
        <Badge tone="warning">authentication required</Badge> The renter's bank asks the renter to confirm the payment themselves, so{" "}
        <code>{pay.delinquency_id}</code> ({money(pay.amount_cents)}) cannot be charged while they are away. Send the renter this link to pay with their card:
      </p>
      <p className={styles.payLink}>
        <a href={pay.url} target="_blank" rel="noreferrer noopener">
          {pay.url}
        </a>
      </p>
    </div>
  );
}

/** At the top of the policy page: a policy with an open dispute is flagged (decisions §18 Disputes), pointing to its payments. */
export function DisputeFlag({ policyId }: { policyId: number }) {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.payments.policy.queryOptions({ policyId }));
  const open = data?.disputes.filter((dispute) => dispute.open).length ?? 0;
  if (open === 0) return null;
  return (
    <p className={styles.notice} data-flag="disputed">
      <Badge tone="danger">disputed</Badge> {open === 1 ? "A payment is disputed" : `${open} payments are disputed`}: see <a href="#payments-title">Payments</a>
      .
    </p>
  );
}

/**
 * The policy page's payments (decisions §18; docs/decisions.md, "Refunds, disputes and
 * reconciliation"): every payment with the processor's id (linked to its dashboard), refunds with
 * their processor status, and disputes, an open one flagged at the top.
 */
export function PaymentsPanel({ policyId }: { policyId: number }) {
  const trpc = useTRPC();
  const { data, error, isPending } = useQuery(trpc.payments.policy.queryOptions({ policyId }));
  const open = data?.disputes.filter((dispute) => dispute.open) ?? [];
  return (
    <section aria-labelledby="payments-title" data-section="payments">
      <h2 id="payments-title">Payments</h2>
      {error && <p role="alert">{errorMessage(error)}</p>}
      {isPending && <p aria-busy="true">Loading…</p>}
      {data && (
        <>
          {open.length > 0 && (
            <p role="status" className={styles.notice}>
              <Badge tone="danger">disputed</Badge> {open.length === 1 ? "A payment of this policy is" : `${open.length} payments of this policy are`} disputed
              by the renter's bank: answer in the processor's dashboard before the deadline there.
            </p>
          )}
          {data.on_session_pay && <OnSessionPay pay={data.on_session_pay} />}
          <DataTable
            label="Payment attempts"
            columns={paymentColumns}
            data={data.payments}
            empty="No payment recorded for this policy."
            getRowId={(row) => row.id}
          />
          <h3>Refunds</h3>
          <DataTable label="Refunds" columns={refundColumns} data={data.refunds} empty="No refund." getRowId={(row) => String(row.id)} />
          <h3>Disputes</h3>
          <DataTable label="Disputes" columns={disputeColumns} data={data.disputes} empty="No dispute." getRowId={(row) => String(row.id)} />
        </>
      )}
    </section>
  );
}
