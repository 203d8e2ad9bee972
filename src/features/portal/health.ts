import { sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";

/** The window of an endpoint's health in the portal (docs/decisions.md, "Partner developer: portal"). */
export const HEALTH_WINDOW_DAYS = 7;

export type EndpointHealth = { attempts: number; succeeded: number; successRate: number | null; lastFailureAt: Date | null; lastFailureReason: string | null };

/**
 * Per endpoint, over the last HEALTH_WINDOW_DAYS: the attempts made, the share that succeeded (an
 * attempt without a failure reason), and the newest failed attempt with its reason. One statement
 * for every endpoint named; an endpoint without attempts has a null rate.
 */
export async function endpointHealth(tx: Tx, endpointIds: string[]): Promise<Map<string, EndpointHealth>> {
  const health = new Map<string, EndpointHealth>();
  for (const id of endpointIds) health.set(id, { attempts: 0, succeeded: 0, successRate: null, lastFailureAt: null, lastFailureReason: null });
  if (endpointIds.length === 0) return health;
  const rows = await tx.execute<{
    endpoint_id: string;
    attempts: number;
    succeeded: number;
    last_failure_at: string | null;
    last_failure_reason: string | null;
  }>(sql`
    select d.endpoint_id,
      count(*)::int as attempts,
      (count(*) filter (where a.failure_reason is null))::int as succeeded,
      max(a.started_at) filter (where a.failure_reason is not null) as last_failure_at,
      (array_agg(a.failure_reason order by a.started_at desc) filter (where a.failure_reason is not null))[1] as last_failure_reason
    from webhook_attempts a
    join webhook_deliveries d on d.id = a.delivery_id
    where d.endpoint_id in (select jsonb_array_elements_text(${JSON.stringify(endpointIds)}::jsonb))
      and a.started_at > now() - make_interval(days => ${HEALTH_WINDOW_DAYS})
    group by d.endpoint_id`);
  for (const row of rows) {
    health.set(row.endpoint_id, {
      attempts: row.attempts,
      succeeded: row.succeeded,
      successRate: row.attempts > 0 ? row.succeeded / row.attempts : null,
      lastFailureAt: row.last_failure_at ? new Date(row.last_failure_at) : null,
      lastFailureReason: row.last_failure_reason,
    });
  }
  return health;
}
