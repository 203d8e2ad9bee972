import { sql } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { recordAudit } from "../audit/audit";
import { WEBHOOK_MESSAGES } from "./messages";

export type AutoSuspended = { id: string; owner_id: number | null; provider_id: number | null; client_id: string | null };

/** The audit actor of an automatic suspension: the task that made it. */
export const AUTO_SUSPEND_ACTOR = { system: "webhook_endpoint__suspend_failing" } as const;

/**
 * decisions §16 Auto-suspend (docs/decisions.md, "Partner developer: endpoint health"): an active
 * endpoint, unchanged for the whole window (`updated_at`: its creation, its last return to `active`,
 * a new destination each start the window again), with a delivery attempted in the window and none
 * delivered in it, becomes `suspended` with its reason, as a manual suspension: its due deliveries
 * wait, parked by the claim, until a return to `active` re-enqueues them. No partner event is sent
 * (the catalog is fixed; the failing receiver would not get it either): each suspension is an audit
 * row and a log line.
 *
 * Cheap: the endpoints table is read once (50 endpoints per subscriber at most), and each candidate
 * costs index probes of `webhook_deliveries_endpoint_attempted_idx` (endpoint, status, last attempt),
 * never a scan of its deliveries. Endpoints another transaction holds are left to the next run.
 */
export async function suspendFailingEndpoints(db: Db, days: number, now: Date = new Date()): Promise<AutoSuspended[]> {
  if (days <= 0) return [];
  const since = new Date(now.getTime() - days * 86_400_000).toISOString();
  const reason = WEBHOOK_MESSAGES.autoSuspended(days);
  return db.transaction(async (tx) => {
    const suspended = await tx.execute<AutoSuspended>(sql`
      with failing as (
        select e.id from webhook_endpoints e
        where e.status = 'active' and e.deleted_at is null and e.updated_at <= ${since}::timestamptz
          and exists (
            select 1 from webhook_deliveries d
            where d.endpoint_id = e.id and d.status in ('pending', 'delivering', 'retrying', 'rate_limited', 'failed')
              and d.last_attempted_at > ${since}::timestamptz)
          and not exists (
            select 1 from webhook_deliveries d
            where d.endpoint_id = e.id and d.status = 'delivered' and d.last_attempted_at > ${since}::timestamptz)
        for no key update of e skip locked
      )
      update webhook_endpoints e set status = 'suspended', suspension_reason = ${reason}, updated_at = now()
      from failing f where e.id = f.id
      returning e.id, e.owner_id, e.provider_id, e.client_id`);
    for (const endpoint of suspended) {
      await recordAudit(tx, AUTO_SUSPEND_ACTOR, {
        action: "endpoints.auto_suspend",
        subject: { type: "webhook_endpoint", id: endpoint.id },
        ownerId: endpoint.owner_id,
        before: { status: "active" },
        after: { status: "suspended", suspension_reason: reason, days },
      });
    }
    return [...suspended];
  });
}
