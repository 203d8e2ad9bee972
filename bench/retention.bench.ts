import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";

const OLD_EVENTS = 510_000; // two final deliveries each: 1,020,000 deliveries past the window
const KEPT_OLD_EVENTS = 5_000; // old, with a delivery still retrying: kept
const RECENT_EVENTS = 50_000; // within the window: kept
const API_PROSPECTS = 100;
const BASELINE_SECONDS = Number(process.env.BENCH_BASELINE_SECONDS ?? 30);
const CONCURRENCY = 4;
const RATIO_TARGET = 1.5;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;
const n = (value: number) => value.toLocaleString("en-US");

type Batch = { table: string; rows: number; ms: number };
type PruneOutcome = { seconds: number; deleted: Record<string, number>; batches: Batch[]; cpuSeconds: number };

/**
 * The retention prune (decisions §14 Retention) beside partner traffic: 1,020,000 delivered and
 * failed deliveries past the 90-day window with their 1,428,000 attempts and 510,000 events,
 * generated set-based in the benchmark's own database (as the deliveries benchmark generates its
 * million), beside deliveries that stay (recent ones, old events with a delivery still retrying).
 * The prune runs in a worker process of its own with the default windows and batches, while partner
 * requests go through the real Partner API handler back to back (GET and POST of prospects, whose
 * upserts emit events into the tables being pruned). Prints the requests' p99 during the prune
 * against their p99 without it (target ≤ 1.5×), the prune's time, rows deleted a second and its
 * batches, and checks that exactly the rows past the window went.
 */
export async function retentionBench(): Promise<void> {
  const dataDir = path.join(".data", "bench-retention");
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.env.DATA_DIR = dataDir;
  process.env.APP_ENV = "staging";
  process.env.LOG_LEVEL ??= "warn";
  // Imported once DATA_DIR points at the benchmark's own database.
  const { closeDb, databaseUrl, getSql } = await import("../src/server/db/client");
  const { migrateDatabase } = await import("../src/server/db/migrate");
  const { prospectPartner, completeProspect } = await import("../src/features/prospects/prospect-test-helpers");
  const { newOwner } = await import("../src/test/factories");
  const { call } = await import("../src/test/http");
  try {
    await migrateDatabase(await databaseUrl());
    const sql = await getSql();
    const partner = await prospectPartner();
    const other = await newOwner(partner.client);
    for (let i = 0; i < API_PROSPECTS; i++) {
      const answer = await partner.post(completeProspect(partner.source, `api-${i}`));
      if (answer.status >= 300) throw new Error(`prospect: ${answer.status} ${answer.text}`);
    }

    const generated = performance.now();
    // Bulk loading is quicker with the secondary indexes built afterwards: the same definitions, saved, dropped, made again.
    const indexes = await sql<{ name: string; definition: string }[]>`
      select indexname as name, indexdef as definition from pg_indexes
      where tablename in ('webhook_events', 'webhook_deliveries', 'webhook_attempts') and indexname not like '%_pkey'`;
    for (const index of indexes) await sql.unsafe(`drop index "${index.name}"`);
    // The partner's own endpoint hears its prospects' events (their deliveries stay pending: no
    // worker runs here), so partner upserts write into the tables being pruned.
    await sql`
      insert into webhook_endpoints (id, owner_id, client_id, name, destination_url, events)
      values ('we_rbench_partner', ${partner.owner.id}, ${partner.client.clientId}, 'bench', 'https://127.0.0.1:1/hook',
              array['prospect.created', 'prospect.ready', 'prospect.incomplete']),
             ('we_rbench_a', ${other.id}, ${partner.client.clientId}, 'bench a', 'https://127.0.0.1:1/hook', array['move_out.initiated']),
             ('we_rbench_b', ${other.id}, ${partner.client.clientId}, 'bench b', 'https://127.0.0.1:1/hook', array['move_out.initiated'])`;
    // Events: old ones 100 to 400 days back, recent ones within the last 80 days.
    await sql`
      insert into webhook_events (owner_id, event, body, move_out_id, created_at)
      select ${other.id}, 'move_out.initiated', json_build_object('event', 'move_out.initiated', 'data', json_build_object('x', g))::text, g,
        case when g <= ${OLD_EVENTS + KEPT_OLD_EVENTS} then now() - interval '100 days' - random() * interval '300 days'
             else now() - random() * interval '80 days' end
      from generate_series(1, ${OLD_EVENTS + KEPT_OLD_EVENTS + RECENT_EVENTS}) g`;
    // Two deliveries per event: old ones 90 % delivered (one attempt), 10 % failed (five attempts);
    // the kept old events' second delivery still retrying; recent ones delivered.
    await sql`
      insert into webhook_deliveries (id, event_id, endpoint_id, owner_id, event, status, attempt_number, last_attempted_at, duration_ms,
                                      created_at, updated_at)
      select 'wd_' || replace(gen_random_uuid()::text, '-', ''), ev.id, case k when 0 then 'we_rbench_a' else 'we_rbench_b' end, ev.owner_id, ev.event,
        s.status, case s.status when 'failed' then 5 when 'delivered' then 1 else 3 end, ev.created_at + interval '1 minute', 120,
        ev.created_at, ev.created_at + interval '1 minute'
      from webhook_events ev cross join generate_series(0, 1) k
      cross join lateral (select case
        when ev.move_out_id > ${OLD_EVENTS} and ev.move_out_id <= ${OLD_EVENTS + KEPT_OLD_EVENTS} and k = 1 then 'retrying'
        when ev.move_out_id <= ${OLD_EVENTS} and random() + 0 * k < 0.1 then 'failed'
        else 'delivered' end as status) s
      where ev.owner_id = ${other.id}`;
    await sql`
      insert into webhook_attempts (delivery_id, number, started_at, duration_ms, response_status, failure_reason, request_headers)
      select d.id, a, d.created_at + a * interval '10 seconds', 120, case when d.status = 'delivered' and a = d.attempt_number then 200 else 503 end,
        case when d.status = 'delivered' and a = d.attempt_number then null else 'HTTP 503' end,
        '{"content-type": "application/json", "user-agent": "pis-webhooks"}'::jsonb
      from webhook_deliveries d cross join lateral generate_series(1, d.attempt_number) a
      where d.owner_id = ${other.id}`;
    for (const index of indexes) await sql.unsafe(index.definition);
    await sql`analyze`;
    const [before] = await sql<{ deliveries: number; attempts: number; events: number; prunable: number; prunableAttempts: number }[]>`
      select (select count(*)::int from webhook_deliveries) as deliveries, (select count(*)::int from webhook_attempts) as attempts,
        (select count(*)::int from webhook_events) as events,
        (select count(*)::int from webhook_deliveries where status in ('delivered', 'failed') and updated_at < now() - interval '90 days') as prunable,
        (select count(*)::int from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
          where d.status in ('delivered', 'failed') and d.updated_at < now() - interval '90 days') as "prunableAttempts"`;
    console.log("\n== retention: the prune beside partner traffic (decisions §14 Retention) ==");
    console.log(
      `generated ${n(before.deliveries)} deliveries, ${n(before.attempts)} attempts, ${n(before.events)} events in ` +
        `${((performance.now() - generated) / 1000).toFixed(1)} s; past the 90-day window and final: ${n(before.prunable)} deliveries, ` +
        `${n(before.prunableAttempts)} attempts`,
    );
    const plan = await sql.unsafe(
      `explain select id, updated_at from webhook_deliveries where status in ('delivered', 'failed') and updated_at < now() - interval '90 days' order by updated_at limit 2000 for update skip locked`,
    );
    console.log(`  a batch's candidates: ${plan.map((row) => Object.values(row)[0]).join(" / ")}`);

    // The partner requests: GETs and POST upserts of the API prospects.
    let i = 0;
    const request = async (): Promise<number> => {
      const k = i++;
      const t0 = performance.now();
      const answer =
        k % 2
          ? await partner.post(completeProspect(partner.source, `api-${k % API_PROSPECTS}`))
          : await call("GET", `${partner.base}/prospects/${partner.source}/api-${(k * 7) % API_PROSPECTS}`, { token: partner.token });
      if (answer.status >= 300) throw new Error(`partner request failed: ${answer.status} ${answer.text.slice(0, 300)}`);
      return performance.now() - t0;
    };
    const until = async (done: () => boolean) => {
      const latencies: number[] = [];
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (!done()) latencies.push(await request());
        }),
      );
      return latencies;
    };
    // Warm-up, then the baseline for a fixed period.
    const warm = performance.now() + 3_000;
    await until(() => performance.now() > warm);
    const baselineEnds = performance.now() + BASELINE_SECONDS * 1000;
    const baseline = await until(() => performance.now() > baselineEnds);

    const worker = await startPruneProcess(dataDir);
    let pruning = true;
    const prune = worker.go().finally(() => {
      pruning = false;
    });
    const [outcome, during] = await Promise.all([prune, until(() => !pruning)]);

    const [after] = await sql<{ deliveries: number; attempts: number; events: number }[]>`
      select (select count(*)::int from webhook_deliveries where owner_id = ${other.id}) as deliveries,
        (select count(*)::int from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.owner_id = ${other.id}) as attempts,
        (select count(*)::int from webhook_events where owner_id = ${other.id}) as events`;
    const { deleted } = outcome;
    const rows = deleted.webhook_deliveries + deleted.webhook_attempts + deleted.webhook_events;
    const deliveryBatches = outcome.batches.filter((batch) => batch.table === "webhook_deliveries").map((batch) => batch.ms);
    console.log(
      `  prune (in a worker process, default windows and batches): ${outcome.seconds.toFixed(1)} s; deleted ${n(deleted.webhook_deliveries)} deliveries, ` +
        `${n(deleted.webhook_attempts)} attempts, ${n(deleted.webhook_events)} events: ${n(Math.round(rows / outcome.seconds))} rows/s ` +
        `(${n(Math.round(deleted.webhook_deliveries / outcome.seconds))} deliveries/s); worker CPU ${outcome.cpuSeconds.toFixed(1)} s`,
    );
    console.log(
      `  batches: ${deliveryBatches.length} transactions of deliveries with their attempts and events; each p50 ${pct(deliveryBatches, 50).toFixed(0)} ms, ` +
        `p99 ${pct(deliveryBatches, 99).toFixed(0)} ms, max ${Math.max(...deliveryBatches).toFixed(0)} ms`,
    );
    console.log(`  left: ${n(after.deliveries)} deliveries, ${n(after.attempts)} attempts, ${n(after.events)} events (the recent and the still retrying)`);
    const b99 = pct(baseline, 99);
    const d99 = pct(during, 99);
    console.log(`  partner requests (GET prospect / POST prospect upsert, ${CONCURRENCY} at a time through the Partner API handler):`);
    console.log(`    without the prune  ${String(baseline.length).padStart(6)} requests   p50 ${ms(pct(baseline, 50))}   p99 ${ms(b99)}`);
    console.log(`    during the prune   ${String(during.length).padStart(6)} requests   p50 ${ms(pct(during, 50))}   p99 ${ms(d99)}`);
    console.log(
      `    p99 during / without: ${(d99 / b99).toFixed(2)}x (target ≤ ${RATIO_TARGET}x: ${d99 / b99 <= RATIO_TARGET ? "met" : "NOT met"})   max during ${ms(Math.max(...during))}`,
    );
    console.log(`  load average at the end: ${fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
    // The kept old events' first delivery is final and goes; their retrying one stays.
    const keptDeliveries = KEPT_OLD_EVENTS + RECENT_EVENTS * 2;
    if (deleted.webhook_deliveries !== before.prunable || after.deliveries !== keptDeliveries || deleted.webhook_attempts !== before.prunableAttempts) {
      throw new Error(`the prune deleted ${deleted.webhook_deliveries} of ${before.prunable} deliveries and left ${after.deliveries}, not ${keptDeliveries}`);
    }
    if (deleted.webhook_events !== OLD_EVENTS || after.events !== KEPT_OLD_EVENTS + RECENT_EVENTS) {
      throw new Error(`the prune deleted ${deleted.webhook_events} of ${OLD_EVENTS} events`);
    }
  } finally {
    await closeDb();
  }
}

/** Starts the prune's worker process and waits until it is connected; `go()` makes it prune and answers its figures. */
async function startPruneProcess(dataDir: string): Promise<{ go: () => Promise<PruneOutcome> }> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/lib/retention-process.ts"], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
  });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`the prune process ended with ${child.exitCode}`);
    return line.value;
  };
  if ((await next()) !== "ready") throw new Error("the prune process did not start");
  return {
    go: async () => {
      child.stdin.write("go\n");
      return JSON.parse(await next()) as PruneOutcome;
    },
  };
}
