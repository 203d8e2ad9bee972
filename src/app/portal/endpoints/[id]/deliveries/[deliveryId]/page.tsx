import Link from "next/link";
import { portalDelivery, portalEndpoint } from "@/features/portal/portal";
import { getDb } from "@/server/db/client";
import { currentPortalSession, noticeOf, orNotFound } from "../../../../_lib/session";
import { retryDeliveryAction } from "../../../../actions";
import styles from "../../../../portal.module.css";
import { formatTime, PortalShell, SessionEnded, Status } from "../../../../shell";

export const metadata = { title: "Delivery · Webhook portal" };

/** One delivery: the exact body sent, its attempts with their failure reasons, retry (decisions §16 Portal). */
export default async function PortalDelivery({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; deliveryId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await currentPortalSession();
  if (!session) return <SessionEnded />;
  const { id, deliveryId } = await params;
  const db = await getDb();
  const endpoint = await orNotFound(portalEndpoint(db, session, id));
  const delivery = await orNotFound(portalDelivery(db, session, endpoint.id, deliveryId));
  const retryable = delivery.status === "failed" || delivery.status === "delivered";
  return (
    <PortalShell session={session} notice={noticeOf((await searchParams).notice)}>
      <p className={styles.crumbs}>
        <Link href="/portal">Endpoints</Link> / <Link href={`/portal/endpoints/${endpoint.id}`}>{endpoint.name}</Link> / delivery
      </p>
      <h1>Delivery {delivery.id}</h1>
      <dl className={styles.facts}>
        <dt>Event</dt>
        <dd>{delivery.event}</dd>
        <dt>Status</dt>
        <dd>
          <Status value={delivery.status} />
        </dd>
        <dt>Attempts</dt>
        <dd>{delivery.attempt_number}</dd>
        <dt>Next try</dt>
        <dd>{formatTime(delivery.next_retry_at)}</dd>
        <dt>Created</dt>
        <dd>{formatTime(delivery.created_at)}</dd>
      </dl>
      {retryable ? (
        <form action={retryDeliveryAction}>
          <input type="hidden" name="endpoint_id" value={endpoint.id} />
          <input type="hidden" name="delivery_id" value={delivery.id} />
          <button type="submit" className={styles.button}>
            {delivery.status === "failed" ? "Retry delivery" : "Send again"}
          </button>
        </form>
      ) : (
        <p>This delivery is scheduled: it can be retried once it has failed or been delivered.</p>
      )}

      <h2 id="payload-heading">Payload</h2>
      <p>The exact body sent; signatures are computed over these bytes.</p>
      <pre className={styles.payload}>{delivery.payload}</pre>

      <h2 id="attempts-heading">Attempts</h2>
      {delivery.attempts.length === 0 ? (
        <p>No attempt yet.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-labelledby="attempts-heading">
            <thead>
              <tr>
                <th scope="col">Attempt</th>
                <th scope="col">Started</th>
                <th scope="col">Response</th>
                <th scope="col">Duration</th>
                <th scope="col">Failure reason</th>
              </tr>
            </thead>
            <tbody>
              {delivery.attempts.map((attempt) => (
                <tr key={`${attempt.number}-${attempt.started_at}`}>
                  <td data-label="Attempt">{attempt.number}</td>
                  <td data-label="Started">{formatTime(attempt.started_at)}</td>
                  <td data-label="Response">{attempt.response_status ?? "no response"}</td>
                  <td data-label="Duration">{attempt.duration_ms} ms</td>
                  <td data-label="Failure reason" className={styles.wrap}>
                    {attempt.failure_reason ?? "succeeded"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </PortalShell>
  );
}
