"use client";

import type { DemoDelivery } from "@/features/demo/activity";
import { usePolled } from "./use-polled";

type Delivery = DemoDelivery;

const POLL_MS = 1_000;

function pretty(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/** The demo owner's webhook deliveries, newest first, read again every second. */
export function DeliveriesPanel({ receiver }: { receiver: { destination: string; reachable: boolean } }) {
  const { value: deliveries, problem } = usePolled("/demo/api/deliveries", (body) => (body as { deliveries: Delivery[] }).deliveries, POLL_MS, "deliveries");

  return (
    <section className="demo-panel" aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Webhook deliveries</h2>
      <p className="muted">
        Every delivery to the demo owner&apos;s endpoints, as it happens. The seeded endpoint <code>{receiver.destination}</code>{" "}
        {receiver.reachable
          ? "is this service's own receiver: deliveries travel over HTTPS and are acknowledged."
          : "cannot be reached (webhooks are HTTPS only and this instance is not): its deliveries show the exact payloads and keep retrying. Register your own HTTPS endpoint with the demo client to receive them."}
      </p>
      {problem && <p role="status">{problem}</p>}
      {deliveries === null ? (
        <p>Loading…</p>
      ) : deliveries.length === 0 ? (
        <p>No deliveries yet.</p>
      ) : (
        <ol className="demo-deliveries" aria-label="Deliveries, newest first">
          {deliveries.map((delivery) => (
            <li key={delivery.id} data-event={delivery.event} data-status={delivery.status}>
              <details>
                <summary>
                  <span className="event">{delivery.event}</span> <span className={`status status-${delivery.status}`}>{delivery.status}</span>{" "}
                  <time dateTime={delivery.created_at}>{new Date(delivery.created_at).toLocaleTimeString()}</time>
                </summary>
                <p className="muted">
                  {delivery.endpoint_name} · attempt {delivery.attempt_number}
                  {delivery.last_attempt_failure_reason ? ` · ${delivery.last_attempt_failure_reason}` : ""} · <code>{delivery.id}</code>
                </p>
                <pre>{pretty(delivery.payload)}</pre>
              </details>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
