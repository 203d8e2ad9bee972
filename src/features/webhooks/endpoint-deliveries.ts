import { sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { WEBHOOK_MESSAGES } from "./messages";
import { deliveryJobsFrom } from "./webhook_delivery__attempt";

/**
 * spec Webhook delivery status (`failed` only after attempt 25) and Delivery mechanics 1: an
 * endpoint back to `active` gets the deliveries that waited for it. The claim parked them without
 * a schedule or a job (`next_retry_at` null); those due while it was away come back now, in one
 * statement that also adds their jobs (100 per job) in the caller's transaction. A delivery whose
 * next try is still ahead keeps its job. A pending delivery whose first job has not run yet gets a
 * second one, which finds it already delivered (or claims it first) and does nothing more.
 */
export async function resumeEndpointDeliveries(tx: Tx, endpointId: string): Promise<number> {
  const [row] = await tx.execute<{ resumed: number }>(sql`
    with resumed as (
      update webhook_deliveries d set next_retry_at = null, updated_at = now()
      where d.endpoint_id = ${endpointId} and d.status in ('pending', 'retrying', 'rate_limited')
        and (d.next_retry_at is null or d.next_retry_at <= now())
      returning d.id
    ), jobs as (${deliveryJobsFrom(sql`select id, null::timestamptz as run_at from resumed`)}
    )
    select (select count(*)::int from resumed) as resumed, (select count(*) from jobs) as _jobs`);
  return row.resumed;
}

/**
 * A deleted endpoint's open deliveries end `failed` with a reason partners can read on the
 * delivery (decisions: Webhooks). One being attempted right now loses its lease: the worker's
 * attempt is still recorded, but the lease fence of the settle keeps the delivery `failed`.
 */
export async function endEndpointDeliveries(tx: Tx, endpointId: string): Promise<number> {
  const [row] = await tx.execute<{ ended: number }>(sql`
    with ended as (
      update webhook_deliveries set status = 'failed', next_retry_at = null, lease_expires_at = null,
        last_attempt_failure_reason = ${WEBHOOK_MESSAGES.endpointDeleted}, updated_at = now()
      where endpoint_id = ${endpointId} and status in ('pending', 'retrying', 'rate_limited', 'delivering')
      returning id
    )
    select count(*)::int as ended from ended`);
  return row.ended;
}
