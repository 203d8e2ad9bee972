import Link from "next/link";
import { HEALTH_WINDOW_DAYS } from "@/features/portal/health";
import { portalDeliveries, portalEndpoint } from "@/features/portal/portal";
import { DELIVERY_STATUSES } from "@/features/webhooks/webhooks.table";
import { getDb } from "@/server/db/client";
import { currentPortalSession, noticeOf, orNotFound } from "../../_lib/session";
import { setEndpointPausedAction } from "../../actions";
import styles from "../../portal.module.css";
import { formatRate, formatTime, PortalShell, SessionEnded, Status } from "../../shell";
import { RetryDeliveries, SendTestEvent } from "./endpoint-actions";

export const metadata = { title: "Webhook endpoint · Webhook portal" };

type Search = Record<string, string | string[] | undefined>;
const one = (value: string | string[] | undefined) => (typeof value === "string" && value !== "" ? value : undefined);

/** Recovery's default window: the last 24 hours, as the `datetime-local` value (UTC) the form shows. */
const dayAgo = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 16);

/**
 * One endpoint: its facts and health, pause or resume, send a test event, retry failed deliveries,
 * its deliveries filtered by status (decisions §16 Portal).
 */
export default async function PortalEndpoint({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Search> }) {
  const session = await currentPortalSession();
  if (!session) return <SessionEnded />;
  const { id } = await params;
  const search = await searchParams;
  const status = DELIVERY_STATUSES.find((value) => value === one(search.status));
  const cursor = one(search.cursor);
  const db = await getDb();
  const endpoint = await orNotFound(portalEndpoint(db, session, id));
  const page = await orNotFound(portalDeliveries(db, session, endpoint.id, { status, cursor }));
  const paused = endpoint.status !== "active";
  const next = page.next_cursor ? `?${new URLSearchParams({ ...(status ? { status } : {}), cursor: page.next_cursor })}` : undefined;
  return (
    <PortalShell session={session} notice={noticeOf(search.notice)}>
      <p className={styles.crumbs}>
        <Link href="/portal">Endpoints</Link> / {endpoint.name}
      </p>
      <h1>{endpoint.name}</h1>
      <dl className={styles.facts}>
        <dt>Status</dt>
        <dd>
          <Status value={endpoint.status} />
        </dd>
        <dt>URL</dt>
        <dd>{endpoint.destination_url}</dd>
        <dt>Events</dt>
        <dd>{endpoint.events.join(", ")}</dd>
        <dt>Success rate</dt>
        <dd>
          {formatRate(endpoint.health?.successRate)} <small>(last {HEALTH_WINDOW_DAYS} days)</small>
        </dd>
        <dt>Last failure</dt>
        <dd>{endpoint.health?.lastFailureAt ? `${formatTime(endpoint.health.lastFailureAt)}: ${endpoint.health.lastFailureReason}` : "none"}</dd>
        <dt>Endpoint id</dt>
        <dd>
          <code>{endpoint.id}</code>
        </dd>
      </dl>
      <form action={setEndpointPausedAction}>
        <input type="hidden" name="endpoint_id" value={endpoint.id} />
        <input type="hidden" name="paused" value={paused ? "false" : "true"} />
        <button type="submit" className={`${styles.button} ${paused ? "" : styles.secondary}`}>
          {paused ? "Resume endpoint" : "Pause endpoint"}
        </button>
      </form>
      <div className={styles.actions}>
        <SendTestEvent endpointId={endpoint.id} events={endpoint.events} />
        <RetryDeliveries endpointId={endpoint.id} defaultSince={dayAgo()} />
      </div>

      <h2 id="deliveries-heading">Deliveries</h2>
      <form method="get" className={styles.filters} aria-label="Filter deliveries">
        <label>
          Status
          <select name="status" defaultValue={status ?? ""}>
            <option value="">Any status</option>
            {DELIVERY_STATUSES.map((value) => (
              <option key={value} value={value}>
                {value.replaceAll("_", " ")}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={styles.button}>
          Filter
        </button>
      </form>
      {page.deliveries.length === 0 ? (
        <p>No delivery{status ? ` with status ${status}` : ""}.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-labelledby="deliveries-heading">
            <thead>
              <tr>
                <th scope="col">Delivery</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last failure</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {page.deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td data-label="Delivery" className={styles.wrap}>
                    <Link href={`/portal/endpoints/${endpoint.id}/deliveries/${delivery.id}`}>{delivery.id}</Link>
                  </td>
                  <td data-label="Event">
                    <span>
                      {delivery.event}
                      {delivery.test ? <span className={`${styles.badge} ${styles.testTag}`}>test</span> : null}
                    </span>
                  </td>
                  <td data-label="Status">
                    <Status value={delivery.status} />
                  </td>
                  <td data-label="Attempts">{delivery.attempt_number}</td>
                  <td data-label="Last failure" className={styles.wrap}>
                    {delivery.last_attempt_failure_reason ?? "—"}
                  </td>
                  <td data-label="Created">{formatTime(delivery.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next ? (
        <p>
          <Link href={next}>Older deliveries</Link>
        </p>
      ) : null}
    </PortalShell>
  );
}
