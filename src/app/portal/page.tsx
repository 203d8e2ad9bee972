import Link from "next/link";
import { HEALTH_WINDOW_DAYS } from "@/features/portal/health";
import { portalEndpoints } from "@/features/portal/portal";
import { getDb } from "@/server/db/client";
import { currentPortalSession, noticeOf } from "./_lib/session";
import styles from "./portal.module.css";
import { formatRate, formatTime, PortalShell, SessionEnded, Status } from "./shell";

export const metadata = { title: "Webhook portal" };

/** The portal's home: the session's endpoints with their status and health (decisions §16 Portal). */
export default async function PortalHome({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await currentPortalSession();
  if (!session) return <SessionEnded />;
  const endpoints = await portalEndpoints(await getDb(), session);
  return (
    <PortalShell session={session} notice={noticeOf((await searchParams).notice)}>
      <h1>Webhook endpoints</h1>
      {endpoints.length === 0 ? (
        <p>No webhook endpoint is registered yet.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption className={styles.owner}>Health over the last {HEALTH_WINDOW_DAYS} days</caption>
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Status</th>
                <th scope="col">Success rate</th>
                <th scope="col">Last failure</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td data-label="Endpoint" className={styles.wrap}>
                    <Link href={`/portal/endpoints/${endpoint.id}`}>{endpoint.name}</Link>
                    <br />
                    <small>{endpoint.destination_url}</small>
                  </td>
                  <td data-label="Status">
                    <Status value={endpoint.status} />
                  </td>
                  <td data-label="Success rate">
                    {formatRate(endpoint.health?.successRate)}
                    {endpoint.health?.attempts ? (
                      <small>
                        {" "}
                        ({endpoint.health.succeeded} of {endpoint.health.attempts} attempts)
                      </small>
                    ) : null}
                  </td>
                  <td data-label="Last failure" className={styles.wrap}>
                    {endpoint.health?.lastFailureAt ? (
                      <>
                        {formatTime(endpoint.health.lastFailureAt)}
                        <br />
                        <small>{endpoint.health.lastFailureReason}</small>
                      </>
                    ) : (
                      "none"
                    )}
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
