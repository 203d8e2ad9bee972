import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { receiversOfThisFile } from "../../test/https-receiver";
import { claimDueDeliveries, claimDueStatement, withoutSorts } from "./claim";
import { webhookPartner } from "./webhook-test-helpers";

const receiver = receiversOfThisFile();

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; "Actual Rows": number; "Actual Loops": number; Plans?: PlanNode[] };

/** Every node of a plan, with the rows it produced in all its loops. */
function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

const BACKLOG = 20_000;

describe('the dispatcher\'s claim reads only the rows it takes (docs/decisions.md, "Delivery engine: a dispatcher per worker")', () => {
  it("right after a bulk retry of a backlog the statistics have not seen, a claim of ten reads tens of rows, not the backlog", async () => {
    const db = await getDb();
    const { owner, register } = await webhookPartner();
    const endpointId = await register((await receiver(200)).url, ["prospect.created"]);
    // An endpoint that answered before its outage: its slow start long over.
    await db.execute(sql`update webhook_endpoints set first_delivered_at = now() - interval '1 day' where id = ${endpointId}`);
    // 20,000 failed deliveries, and statistics that know them as failed…
    await db.execute(sql`
      with events as (
        insert into webhook_events (owner_id, event, body)
        select ${owner.id}, 'prospect.created', '{}' from generate_series(1, ${BACKLOG}) returning id
      )
      insert into webhook_deliveries (id, event_id, endpoint_id, owner_id, event, status, attempt_number)
      select 'wd_plan_' || events.id, events.id, ${endpointId}, ${owner.id}, 'prospect.created', 'failed', 25 from events`);
    await db.execute(sql`analyze webhook_deliveries`);
    // …then all of them due again at once, as the retry route and the console's bulk retry leave them.
    await db.execute(sql`update webhook_deliveries set status = 'retrying', next_retry_at = now() - interval '1 second' where endpoint_id = ${endpointId}`);

    const slots = { limit: 10, endpointLimit: 10, busy: {} };
    const now = new Date();
    const [{ "QUERY PLAN": plans }] = await withoutSorts<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
      db,
      sql`explain (analyze, format json) ${claimDueStatement(slots, now, new Date(now.getTime() + 30_000))}`,
    );
    const reads = nodesOf(plans[0].Plan).filter((node) => node["Relation Name"] === "webhook_deliveries");
    const rowsRead = reads.map((node) => node["Actual Rows"] * node["Actual Loops"]);
    expect(
      Math.max(...rowsRead),
      JSON.stringify(reads.map((node) => [node["Node Type"], node["Index Name"], node["Actual Rows"], node["Actual Loops"]])),
    ).toBeLessThan(100);

    // The claim itself (the explain above ran it: ten are delivering now) takes the next ten.
    const claimed = await claimDueDeliveries(db, slots, new Date(), new Date(Date.now() + 30_000));
    expect(claimed).toHaveLength(10);
    const [{ delivering }] = await db.execute<{ delivering: number }>(
      sql`select count(*)::int as delivering from webhook_deliveries where endpoint_id = ${endpointId} and status = 'delivering'`,
    );
    expect(delivering).toBe(20);
  });
});
