import { connectPostgres } from "../src/server/db/url";
import { startBenchReceivers } from "./lib/receivers";
import { partnerToken, type RunningService } from "./lib/service";

const ENDPOINTS = 20;
const EVENTS = 900;
const RATE_EVENTS = 1200;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/**
 * The webhooks benchmark: 900 events to 20 endpoints over 2 local HTTPS receivers (18,000 deliveries,
 * no endpoint over its limit), against graphile-worker's raw no-op throughput in the same run; then
 * 1,200 events to one endpoint within a minute to show the rate limit.
 */
export async function webhooksBench(service: RunningService, databaseUrl: string, tls: { key: string; cert: string }): Promise<void> {
  const sql = connectPostgres(databaseUrl, { max: 4, onnotice: () => {} });
  const receivers = await startBenchReceivers(2, tls);
  try {
    const token = await partnerToken(service);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const owner = await (
      await fetch(`${service.baseUrl}/api/partners/property_owners`, {
        method: "POST",
        headers,
        body: JSON.stringify({ external_org_id: `bench-hooks-${Date.now()}`, name: "Webhook Bench" }),
      })
    ).json();
    const slug = owner.property_owner.owner_slug as string;
    const [{ id: ownerId }] = await sql<{ id: number }[]>`select id from property_owners where slug = ${slug}`;
    const register = async (url: string, events: string[]) => {
      const answer = await fetch(`${service.baseUrl}/api/partners/${slug}/webhooks/endpoints`, {
        method: "POST",
        headers,
        body: JSON.stringify({ endpoint: { name: "bench", destination_url: url, events } }),
      });
      if (answer.status !== 201) throw new Error(`endpoint registration failed: ${answer.status} ${await answer.text()}`);
    };
    // Each round has its own 20 endpoints (one event each), so no endpoint goes over 1000 a minute.
    for (const event of ["prospect.created", "prospect.ready"]) {
      for (let i = 0; i < ENDPOINTS; i++) await register(receivers.urls[i % 2], [event]);
    }

    // Baseline: graphile-worker's own throughput for a no-op task, on the same service and database.
    const noops = 20_000;
    const noopStart = performance.now();
    await sql`select graphile_worker.add_jobs(array(select row('system__noop', '{}'::json, null, null, null, null, null, null)::graphile_worker.job_spec from generate_series(1, ${noops})))`;
    await until(async () => (await sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'system__noop'`)[0].n === 0, 120_000);
    const noopPerSecond = noops / ((performance.now() - noopStart) / 1000);

    const { emitEvent } = await import("../src/features/webhooks/emit");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const db = drizzle(sql);
    const expected = EVENTS * ENDPOINTS;

    /**
     * 900 events, each committed in its own transaction through the service's emission function,
     * either as fast as they commit (burst: the most the engine can deliver) or one every
     * `spacingMs` (paced: event-to-first-attempt latency at a given offered load).
     */
    const round = async (name: string, event: "prospect.created" | "prospect.ready", spacingMs: number) => {
      const emittedAt = new Map<string, number>();
      const seen = receivers.arrivals.length;
      const start = Date.now();
      for (let i = 0; i < EVENTS; i++) {
        if (spacingMs > 0) {
          const wait = start + i * spacingMs - Date.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        }
        const id = `${name}-${i}`;
        await db.transaction((tx) => emitEvent(tx as never, { ownerId, ownerSlug: slug, event, data: { id } }));
        emittedAt.set(id, Date.now());
      }
      const emitSeconds = (Date.now() - start) / 1000;
      const mine = () => receivers.arrivals.slice(seen).filter((a) => a.event === event);
      const complete = await until(() => new Set(mine().map((a) => a.delivery)).size >= expected, 300_000);
      await new Promise((resolve) => setTimeout(resolve, 1000)); // a late duplicate would show up here
      const arrivals = mine();
      const unique = new Set(arrivals.map((a) => a.delivery));
      const latencies = arrivals.map((a) => a.at - (emittedAt.get(JSON.parse(a.body).data.third_party_prospect.id) ?? a.at));
      const first = Math.min(...arrivals.map((a) => a.at));
      const last = Math.max(...arrivals.map((a) => a.at));
      return {
        complete,
        emitSeconds,
        perSecond: unique.size / ((last - first) / 1000),
        latencies,
        missing: expected - unique.size,
        duplicates: arrivals.length - unique.size,
      };
    };
    const report = (label: string, r: Awaited<ReturnType<typeof round>>) => {
      console.log(`  ${label}${r.complete ? "" : " — TIMED OUT"}`);
      console.log(`    events emitted in ${r.emitSeconds.toFixed(1)} s; deliveries/s first→last ${r.perSecond.toFixed(0)}`);
      console.log(`    event→first attempt p50 ${pct(r.latencies, 50)} ms   p99 ${pct(r.latencies, 99)} ms`);
      console.log(`    missing ${r.missing}   duplicates ${r.duplicates}`);
    };
    console.log(`webhooks: ${EVENTS} events x ${ENDPOINTS} endpoints on 2 HTTPS receivers (${expected} deliveries per round)`);
    const burst = await round("burst", "prospect.created", 0);
    report("burst (events as fast as they commit; target ≥ 1000 deliveries/s)", burst);
    const paced = await round("paced", "prospect.ready", 20);
    report("paced at 50 events/s = 1000 deliveries/s offered (target event→first attempt p50 < 50 ms)", paced);
    console.log(`  baseline no-op jobs/s ${noopPerSecond.toFixed(0)}; burst deliveries/s at ${(burst.perSecond / noopPerSecond).toFixed(2)}x of it`);

    // The limit itself: 1,200 events to one endpoint within a minute.
    await register(receivers.urls[0], ["delinquency.created"]);
    const [{ id: limited }] = await sql<{ id: string }[]>`select id from webhook_endpoints where owner_id = ${ownerId} and 'delinquency.created' = any(events)`;
    await db.transaction(async (tx) => {
      for (let i = 0; i < RATE_EVENTS; i++) await emitEvent(tx as never, { ownerId, ownerSlug: slug, event: "delinquency.created", data: { id: `d-${i}` } });
    });
    const counts = async () =>
      Object.fromEntries(
        (
          await sql<{ status: string; n: number }[]>`select status, count(*)::int as n from webhook_deliveries where endpoint_id = ${limited} group by status`
        ).map((r) => [r.status, r.n]),
      );
    await until(async () => ((await counts()).delivered ?? 0) + ((await counts()).rate_limited ?? 0) >= RATE_EVENTS, 60_000);
    const first = await counts();
    console.log(`  rate limit: 1200 events to one endpoint → delivered ${first.delivered ?? 0}, rate_limited ${first.rate_limited ?? 0} (expected 1000 / 200)`);
    await until(async () => (await counts()).delivered === RATE_EVENTS, 150_000);
    const after = await counts();
    const attempts = await sql<
      { n: number }[]
    >`select count(*)::int as n from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ${limited}`;
    console.log(
      `  after the minute: delivered ${after.delivered ?? 0} of ${RATE_EVENTS}; attempts recorded ${attempts[0].n} (rate-limited tries use no attempt)`,
    );
  } finally {
    await receivers.close();
    await sql.end();
  }
}
