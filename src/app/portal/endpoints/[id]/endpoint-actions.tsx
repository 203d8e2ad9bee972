"use client";

import Link from "next/link";
import { useActionState } from "react";
import { type EndpointFormState, retryDeliveriesAction, sendTestEventAction } from "../../actions";
import styles from "../../portal.module.css";

/** A field's messages, tied to its control by `aria-describedby`. */
function FieldErrors({ id, messages }: { id: string; messages?: string[] }) {
  if (!messages?.length) return null;
  return (
    <span id={id} className={styles.fieldError}>
      {messages.join(" ")}
    </span>
  );
}

/** "Send a test event": one of the endpoint's events; the new delivery is linked and listed below, marked test. */
export function SendTestEvent({ endpointId, events }: { endpointId: string; events: string[] }) {
  const [state, action, pending] = useActionState<EndpointFormState, FormData>(sendTestEventAction, {});
  const eventError = state.errors?.event ?? state.errors?.base;
  return (
    <form action={action} className={styles.actionForm} aria-labelledby="test-event-heading">
      <h3 id="test-event-heading">Send a test event</h3>
      <input type="hidden" name="endpoint_id" value={endpointId} />
      <div className={styles.field}>
        <label>
          Event to send
          <select
            name="event"
            defaultValue={events[0]}
            aria-invalid={eventError ? true : undefined}
            aria-describedby={eventError ? "test-event-error" : undefined}
          >
            {events.map((event) => (
              <option key={event} value={event}>
                {event}
              </option>
            ))}
          </select>
        </label>
        <FieldErrors id="test-event-error" messages={eventError} />
      </div>
      <button type="submit" className={styles.button} disabled={pending}>
        Send test event
      </button>
      {state.deliveryId ? (
        <p role="status" className={styles.result}>
          Test event sent: delivery <Link href={`/portal/endpoints/${endpointId}/deliveries/${state.deliveryId}`}>{state.deliveryId}</Link>
        </p>
      ) : null}
    </form>
  );
}

/** "Retry failed deliveries": failed or retrying, created since a UTC date-time (default 24 h ago); shows how many matched. */
export function RetryDeliveries({ endpointId, defaultSince }: { endpointId: string; defaultSince: string }) {
  const [state, action, pending] = useActionState<EndpointFormState, FormData>(retryDeliveriesAction, {});
  return (
    <form action={action} className={styles.actionForm} aria-labelledby="retry-heading">
      <h3 id="retry-heading">Retry failed deliveries</h3>
      <input type="hidden" name="endpoint_id" value={endpointId} />
      <div className={styles.field}>
        <label>
          Deliveries to retry
          <select
            name="status"
            defaultValue="failed"
            aria-invalid={state.errors?.status ? true : undefined}
            aria-describedby={state.errors?.status ? "retry-status-error" : undefined}
          >
            <option value="failed">failed</option>
            <option value="retrying">retrying</option>
          </select>
        </label>
        <FieldErrors id="retry-status-error" messages={state.errors?.status} />
      </div>
      <div className={styles.field}>
        <label>
          Created since (UTC)
          <input
            type="datetime-local"
            name="since"
            defaultValue={defaultSince}
            required
            aria-invalid={state.errors?.since ? true : undefined}
            aria-describedby={state.errors?.since ? "retry-since-error" : undefined}
          />
        </label>
        <FieldErrors id="retry-since-error" messages={state.errors?.since} />
      </div>
      <button type="submit" className={styles.button} disabled={pending}>
        Retry deliveries
      </button>
      {state.errors?.base ? (
        <p role="alert" className={styles.fieldError}>
          {state.errors.base.join(" ")}
        </p>
      ) : null}
      {state.matched !== undefined ? (
        <p role="status" className={styles.result}>
          {state.matched === 1 ? "1 delivery matched" : `${state.matched} deliveries matched`} and {state.matched === 1 ? "is" : "are"} being retried.
        </p>
      ) : null}
    </form>
  );
}
