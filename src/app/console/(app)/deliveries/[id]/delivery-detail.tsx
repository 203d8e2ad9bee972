"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
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
  JsonView,
  PageHeader,
  useConsoleMutation,
  useTRPC,
} from "../../../_ui";
import { EndpointPanel } from "./endpoint-panel";

type Attempt = ConsoleOutputs["webhooks"]["deliveries"]["detail"]["attempts"][number];

const attemptColumns: ColumnDef<Attempt>[] = [
  { accessorKey: "number", header: "#" },
  { accessorKey: "started_at", header: "Time", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  { accessorKey: "duration_ms", header: "Duration", cell: ({ getValue }) => `${getValue<number>()} ms` },
  { accessorKey: "response_status", header: "Response", cell: ({ getValue }) => getValue<number | null>() ?? "—" },
  { accessorKey: "failure_reason", header: "Failure reason", cell: ({ getValue }) => getValue<string | null>() ?? "—" },
  { accessorKey: "response_excerpt", header: "Response excerpt", cell: ({ getValue }) => <code>{getValue<string | null>() ?? "—"}</code> },
];

export function DeliveryDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const { data: delivery, error } = useQuery(trpc.webhooks.deliveries.detail.queryOptions({ id }));
  const retry = useConsoleMutation(trpc.webhooks.deliveries.retry.mutationOptions(), { invalidates: [trpc.webhooks.deliveries] });
  const back = { href: "/console/deliveries", label: "All deliveries" };
  if (error)
    return (
      <section>
        <PageHeader title="Delivery" back={back} />
        <p role="alert">{errorMessage(error)}</p>
      </section>
    );
  if (!delivery) return <p aria-busy="true">Loading…</p>;
  const retryable = (delivery.status === "failed" || delivery.status === "delivered") && !delivery.endpoint_deleted;
  return (
    <section>
      <PageHeader
        title={`Delivery ${delivery.id}`}
        back={back}
        actions={
          retryable && (
            <Can permission="deliveries.retry">
              <ConfirmDialog
                trigger={<Button>Retry</Button>}
                title="Retry this delivery"
                description="It gets a fresh schedule of 25 attempts under the same delivery id."
                actionLabel="Retry now"
                pending={retry.isPending}
                error={retry.error ? errorMessage(retry.error) : undefined}
                onConfirm={() => retry.mutateAsync({ id })}
              />
            </Can>
          )
        }
      />
      <Facts
        items={[
          ["Status", <Badge key="s" status={delivery.status} />],
          ["Event", delivery.event],
          [
            "Owner",
            <Link
              key="o"
              href={`/console/deliveries?owner=${encodeURIComponent(delivery.owner_slug)}`}
            >{`${delivery.owner_name} (${delivery.owner_slug})`}</Link>,
          ],
          ["Endpoint", `${delivery.endpoint_name} · ${delivery.destination_url}`],
          ["Attempts", String(delivery.attempt_number)],
          ["Last attempt", delivery.last_attempted_at ? formatDateTime(delivery.last_attempted_at) : "—"],
          ["Next retry", delivery.next_retry_at ? formatDateTime(delivery.next_retry_at) : "—"],
          ["Last failure", delivery.last_attempt_failure_reason ?? "—"],
          ["Policy number", delivery.policy_number ?? "—"],
          ["Partner prospect id", delivery.source_prospect_id ?? "—"],
          ["Move-out id", delivery.move_out_id === null ? "—" : String(delivery.move_out_id)],
          ["Created", formatDateTime(delivery.created_at)],
        ]}
      />
      <h2>Payload</h2>
      <JsonView raw={delivery.payload} label="Payload (exact body sent)" />
      <h2>Request headers</h2>
      {delivery.request_headers ? <JsonView value={delivery.request_headers} label="Headers of the last request" /> : <p>Not attempted yet.</p>}
      <h2>Attempts</h2>
      <DataTable label="Attempts" columns={attemptColumns} data={delivery.attempts} empty="No attempt yet." getRowId={(row) => String(row.number)} />
      <EndpointPanel id={delivery.endpoint_id} />
    </section>
  );
}
