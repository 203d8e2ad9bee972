import type { searchDeliveries as SearchDeliveries } from "../src/features/webhooks/console/search";
import { connectPostgres } from "../src/server/db/url";
import { partnerToken, type RunningService } from "./lib/service";

const OWNERS = 50;
const ENDPOINTS_PER_OWNER = 4;
const EVENTS = 500_000; // two deliveries each: 1,000,000 deliveries
const BULK = 10_000;
const RUNS = 50;
const P99_TARGET_MS = 200;
const BULK_TARGET_MS = 5_000;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

type Filter = Parameters<typeof SearchDeliveries>[1];

/**
 * docs/decisions.md, "Console: deliveries": the console's delivery search over 1,000,000 deliveries generated in the
 * benchmark's own database (set-based, spread over 50 owners, 200 endpoints, every event, the six
 * statuses, 90 days and the records they are about), p99 of the domain function per filter over 50
 * varied runs, with the plan of each; then a bulk retry of 10,000 failed deliveries run as its job.
 */
export async function deliveriesBench(service: RunningService, databaseUrl: string): Promise<void> {
  const sql = connectPostgres(databaseUrl, { max: 2, onnotice: () => {} });
  // Imported once run.ts has pointed DATA_DIR at the service's data directory (as the other benches do).
  const { closeDb, getDb } = await import("../src/server/db/client");
  const { searchDeliveries, searchDeliveriesQuery } = await import("../src/features/webhooks/console/search");
  const { bulkRetryProgress } = await import("../src/features/webhooks/console/retry");
  const { startBulkRetry } = await import("../src/features/webhooks/console/webhook_delivery__bulk_retry");
  try {
    const token = await partnerToken(service);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const run = Date.now();
    const slugs: string[] = [];
    for (let i = 0; i <= OWNERS; i++) {
      const answer = await fetch(`${service.baseUrl}/api/partners/property_owners`, {
        method: "POST",
        headers,
        body: JSON.stringify({ external_org_id: `bench-deliveries-${run}-${i}`, name: `Delivery Bench ${i}` }),
      });
      slugs.push(((await answer.json()) as { property_owner: { owner_slug: string } }).property_owner.owner_slug);
    }
    const owners = await sql<{ id: number; slug: string }[]>`select id, slug from property_owners where slug in ${sql(slugs)} order by id`;
    const ownerIds = owners.slice(0, OWNERS).map((o) => o.id);
    const bulkOwner = owners[OWNERS];
    const clientId = service.demo.client_id;

    const generated = performance.now();
    await sql`
      insert into webhook_endpoints (id, owner_id, client_id, name, destination_url, events)
      select 'we_bench_' || o.ord || '_' || k, o.id, ${clientId}, 'bench ' || k, 'https://127.0.0.1:1/hook',
        array['prospect.created','prospect.ready','prospect.incomplete','policy.created','policy.updated','policy.canceled','policy.expired',
              'policy.documents_updated','policy_application.created','policy_application.quoted','policy_application.declined',
              'policy_application.submitted','delinquency.created','delinquency.resolved','move_out.initiated']
      from unnest(${ownerIds}::int[]) with ordinality as o(id, ord), generate_series(0, ${ENDPOINTS_PER_OWNER - 1}) k`;
    // Events: owners skewed (a few large ones), event families weighted as traffic is, 90 days back;
    // each names its records as recordRefsOf would read them from its payload.
    await sql`
      insert into webhook_events (owner_id, event, body, source_prospect_id, policy_number, move_out_id, created_at)
      select owner_id, event,
        json_build_object('event', event, 'property_owner_slug', 'bench', 'data', json_build_object('x', g))::text,
        case when event like 'prospect.%' or event like 'policy%' or event like 'delinquency.%' then 'sp-' || (g % 300000) end,
        case when event like 'policy.%' or event like 'delinquency.%' then 'POL-' || lpad((g % 120000)::text, 8, '0') end,
        case when event = 'move_out.initiated' then g end,
        now() - random() * interval '90 days'
      from (
        select g,
          (${ownerIds}::int[])[1 + floor(${OWNERS} * power(random(), 2))::int] as owner_id,
          (array['prospect.created','prospect.ready','prospect.ready','prospect.incomplete','policy.created','policy.updated',
                 'policy.documents_updated','policy.documents_updated','policy.canceled','policy.expired','policy_application.created',
                 'policy_application.quoted','policy_application.submitted','policy_application.declined','delinquency.created',
                 'delinquency.resolved','move_out.initiated'])[1 + floor(random() * 17)::int] as event
        from generate_series(1, ${EVENTS}) g
      ) e`;
    // Two deliveries per event, to two of its owner's endpoints; statuses as a healthy system has them.
    await sql`
      insert into webhook_deliveries (id, event_id, endpoint_id, owner_id, event, status, attempt_number, last_attempted_at, duration_ms,
                                      last_attempt_failure_reason, created_at, updated_at)
      select 'wd_' || replace(gen_random_uuid()::text, '-', ''), ev.id, 'we_bench_' || o.ord || '_' || ((ev.id + k) % ${ENDPOINTS_PER_OWNER}),
        ev.owner_id, ev.event, s.status,
        case s.status when 'failed' then 25 when 'pending' then 0 when 'delivered' then 1 else 3 end,
        case when s.status = 'pending' then null else ev.created_at + interval '1 second' end,
        case when s.status = 'pending' then null else (20 + random() * 400)::int end,
        case when s.status in ('failed', 'retrying') then 'HTTP 503' end,
        ev.created_at + (k * interval '1 millisecond'), ev.created_at
      from webhook_events ev
      join unnest(${ownerIds}::int[]) with ordinality as o(id, ord) on o.id = ev.owner_id
      cross join generate_series(0, 1) k
      cross join lateral (select case
        when r < 0.88 then 'delivered' when r < 0.94 then 'failed' when r < 0.98 then 'retrying' when r < 0.99 then 'pending' else 'rate_limited' end as status
        from (select random() + 0 * ev.id + 0 * k as r) x) s
      where ev.owner_id = any(${ownerIds}::int[])`;
    // The bulk-retry owner: 10,000 failed deliveries on one endpoint.
    await sql`
      insert into webhook_endpoints (id, owner_id, client_id, name, destination_url, events)
      values ('we_bench_bulk', ${bulkOwner.id}, ${clientId}, 'bench bulk', 'https://127.0.0.1:1/hook', array['prospect.ready'])`;
    await sql`
      with ev as (
        insert into webhook_events (owner_id, event, body, source_prospect_id, created_at)
        select ${bulkOwner.id}, 'prospect.ready', json_build_object('event', 'prospect.ready', 'data', json_build_object('x', g))::text, 'spb-' || g,
          now() - g * interval '1 second'
        from generate_series(1, ${BULK}) g
        returning id, created_at
      )
      insert into webhook_deliveries (id, event_id, endpoint_id, owner_id, event, status, attempt_number, last_attempted_at,
                                      last_attempt_failure_reason, created_at)
      select 'wd_' || replace(gen_random_uuid()::text, '-', ''), id, 'we_bench_bulk', ${bulkOwner.id}, 'prospect.ready', 'failed', 25, created_at,
        'HTTP 503', created_at from ev`;
    await sql`analyze webhook_events`;
    await sql`analyze webhook_deliveries`;
    const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries`;
    process.stdout.write(`\n== deliveries: console search and bulk retry (issue 11 item 10) ==\n`);
    process.stdout.write(
      `generated ${n.toLocaleString("en-US")} deliveries (${OWNERS + 1} owners, ${OWNERS * ENDPOINTS_PER_OWNER + 1} endpoints) in ${((performance.now() - generated) / 1000).toFixed(1)} s\n`,
    );

    // Varied values per filter, drawn from the data.
    const endpoints = (await sql<{ id: string }[]>`select id from webhook_endpoints where id like 'we_bench_%' order by random() limit ${RUNS}`).map(
      (r) => r.id,
    );
    const prospects = (
      await sql<{ v: string }[]>`select source_prospect_id as v from webhook_events where source_prospect_id like 'sp-%' order by random() limit ${RUNS}`
    ).map((r) => r.v);
    const policies = (
      await sql<{ v: string }[]>`select policy_number as v from webhook_events where policy_number is not null order by random() limit ${RUNS}`
    ).map((r) => r.v);
    const moveOuts = (
      await sql<{ v: number }[]>`select move_out_id as v from webhook_events where move_out_id is not null order by random() limit ${RUNS}`
    ).map((r) => r.v);
    const eventNames = ["prospect.ready", "policy.created", "move_out.initiated", "delinquency.resolved", "policy_application.declined"];
    const statuses = ["failed", "delivered", "retrying", "pending", "rate_limited"] as const;
    const day = 86_400_000;
    const window = (i: number) => {
      const to = Date.now() - ((i * 7) % 88) * day;
      return { from: new Date(to - day).toISOString(), to: new Date(to).toISOString() };
    };
    const db = await getDb();
    const secondPage = async (i: number): Promise<Filter> => {
      const first = await searchDeliveries(db, { owner: slugs[i % OWNERS] });
      return { owner: slugs[i % OWNERS], cursor: first.next_cursor ?? undefined };
    };
    const filters: Array<[string, (i: number) => Filter | Promise<Filter>]> = [
      ["newest (no filter)", () => ({})],
      ["owner", (i) => ({ owner: slugs[i % OWNERS] })],
      ["endpoint", (i) => ({ endpoint_id: endpoints[i % endpoints.length] })],
      ["event", (i) => ({ event: eventNames[i % eventNames.length] })],
      ["status", (i) => ({ status: statuses[i % statuses.length] })],
      ["time range (1 day)", (i) => window(i)],
      ["source_prospect_id", (i) => ({ source_prospect_id: prospects[i % prospects.length] })],
      ["policy number", (i) => ({ policy_number: policies[i % policies.length] })],
      ["move-out id", (i) => ({ move_out_id: moveOuts[i % moveOuts.length] })],
      ["owner + failed", (i) => ({ owner: slugs[i % OWNERS], status: "failed" })],
      [
        "owner + event + 7 days",
        (i) => ({ owner: slugs[i % OWNERS], event: eventNames[i % eventNames.length], from: new Date(Date.now() - 7 * day).toISOString() }),
      ],
      ["owner, second page (cursor)", secondPage],
    ];
    const plans: string[] = [];
    for (const [name, make] of filters) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const filter = await make(i);
        const started = performance.now();
        await searchDeliveries(db, filter);
        times.push(performance.now() - started);
      }
      const p99 = pct(times, 99);
      process.stdout.write(
        `search by ${name.padEnd(28)} p50 ${ms(pct(times, 50)).padStart(9)}  p99 ${ms(p99).padStart(9)}  target p99 < ${P99_TARGET_MS} ms: ${p99 < P99_TARGET_MS ? "ok" : "MISSED"} (ratio ${(p99 / P99_TARGET_MS).toFixed(2)})\n`,
      );
      const { query } = await searchDeliveriesQuery(db, await make(1));
      const compiled = query.toSQL();
      const plan = await sql.unsafe(`explain (analyze, costs off, timing off, summary off) ${compiled.sql}`, compiled.params as never[]);
      plans.push(`-- ${name}\n${plan.map((row) => `   ${row["QUERY PLAN"]}`).join("\n")}`);
    }
    process.stdout.write(`\nquery plans (EXPLAIN ANALYZE, one run per filter):\n${plans.join("\n")}\n`);

    // Bulk retry of 10,000 failed deliveries, run as the console runs it: the job, in the service's worker.
    const started = performance.now();
    const bulk = await startBulkRetry(db, { cli: "bench" }, { owner: bulkOwner.slug });
    let progress = await bulkRetryProgress(db, bulk.id);
    while (progress.status === "queued" || progress.status === "running") {
      await new Promise((resolve) => setTimeout(resolve, 20));
      progress = await bulkRetryProgress(db, bulk.id);
      if (performance.now() - started > 120_000) throw new Error("bulk retry did not finish in 2 minutes");
    }
    const elapsed = performance.now() - started;
    const [timing] = await sql<{ pickup_ms: number; run_ms: number }[]>`
      select extract(epoch from started_at - created_at) * 1000 as pickup_ms, extract(epoch from finished_at - started_at) * 1000 as run_ms
      from bulk_retries where id = ${bulk.id}`;
    const [{ jobs }] = await sql<{ jobs: number }[]>`
      select count(*)::int as jobs from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = 'webhook_delivery__attempt'`;
    process.stdout.write(
      `bulk retry: matched ${progress.matched.toLocaleString("en-US")}, enqueued ${progress.enqueued.toLocaleString("en-US")} (status ${progress.status}) in ${ms(elapsed)} through its job (picked up after ${ms(Number(timing.pickup_ms))}, ran ${ms(Number(timing.run_ms))}), ${jobs} delivery jobs queued at the end; target < ${BULK_TARGET_MS} ms: ${elapsed < BULK_TARGET_MS && progress.enqueued === BULK ? "ok" : "MISSED"} (ratio ${(elapsed / BULK_TARGET_MS).toFixed(2)})\n`,
    );
  } finally {
    await sql.end();
    await closeDb();
  }
}
