import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { connectPostgres } from "../src/server/db/url";
import { createTestCertificates } from "../src/test/tls";
import { startBenchReceivers, startHangingReceivers } from "./lib/receivers";
import { partnerToken, type RunningService, startService } from "./lib/service";

/**
 * `npm run bench -- isolation [part…]` (decisions §17; docs/decisions.md "Benchmark: isolation"):
 * real processes (`scripts/start.ts`, `scripts/worker.ts`) and real HTTPS receivers on loopback: a
 * fast one (200 at once), hanging ones (accept, read, never answer), a slow one (200 after 9 s).
 * Every figure is printed beside its baseline measured in the same run, and the ratio.
 *   delay parts (`hanging`, `hanging100`, `fast100`, `slow`, `recovery`; `delay` = all five): owner A
 *     creates prospects at 10/s through the API; the delay from each POST's answer to the
 *     `prospect.created` delivery's arrival at A's fast receiver, p50/p99, alone (the baseline) then
 *     beside the noise, with A's six worst delays and when in the phase they were created;
 *     `fast100` is the control of `hanging100`: the same API traffic (two owners, 100 endpoints, one
 *     event a second each) to receivers that answer at once, so what the hanging costs is told apart
 *     from what the noise's own requests cost the two cores;
 *   `drain`: 45,000 deliveries to 50 endpoints emitted with WORKER=off, then one worker process;
 *     deliveries/s, missing and duplicated (X-Webhook-Delivery), against the baseline commit's engine
 *     (BENCH_BASELINE=<checkout> or BENCH_BASELINE_COMMIT, default 79d5b64, in a worktree of its own);
 *   `api`: a second client's upsert p99 alone and beside a client at concurrency 100; the upsert
 *     benchmark with the per-client limit and without it (a very high API_RATE_LIMIT_PER_SECOND),
 *     when the build has the limit.
 * BENCH_CHECKOUT=<checkout> measures that checkout's service with this bench (default: this one).
 */
const PORT = Number(process.env.BENCH_PORT ?? 3302);
/** Seconds each delay phase creates prospects (10 a second). */
const PHASE_SECONDS = Number(process.env.BENCH_ISOLATION_SECONDS ?? 15);
/** After a phase's last creation, how long its deliveries may still arrive before they count as missing. */
const GRACE_SECONDS = Number(process.env.BENCH_ISOLATION_GRACE_SECONDS ?? 20);
const RECOVERY_DELIVERIES = 100_000;
/** Rounds of the upsert benchmark without the limit and with the fair queue alone, alternated. */
const API_ROUNDS = Number(process.env.BENCH_API_ROUNDS ?? 4);
const DRAIN_ENDPOINTS = 50;
const DRAIN_EVENTS = 900; // × 50 endpoints = 45,000 deliveries; 900 per endpoint, under 1,000 a minute
const DRAIN_TIMEOUT_SECONDS = Number(process.env.BENCH_DRAIN_TIMEOUT_SECONDS ?? 120);
const DELAY_PARTS = ["hanging", "hanging100", "fast100", "slow", "recovery"] as const;

const pct = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (value: number) => (Number.isNaN(value) ? "   n/a" : value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${value.toFixed(1)} ms`).padStart(9);
const load = () =>
  `load ${os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")} on ${os.cpus().length} cores`;
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));
const say = (line: string) => process.stdout.write(`${line}\n`);

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(100);
  }
  return false;
}

/** Calls `fn(i)` `perSecond` times a second for `seconds`, each on time whatever the earlier ones take. */
async function paced(perSecond: number, seconds: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  const started = Date.now();
  const calls: Promise<unknown>[] = [];
  for (let i = 0; i < perSecond * seconds; i++) {
    const wait = started + (i * 1000) / perSecond - Date.now();
    if (wait > 0) await sleep(wait);
    calls.push(fn(i).catch(() => undefined));
  }
  await Promise.all(calls);
}

type Partner = { service: RunningService; headers: Record<string, string>; source: string };

/** A setup call's JSON answer; sent again once when the connection was closed under it (a keep-alive race). */
async function json<T>(call: () => Promise<Response>): Promise<T> {
  const answer = await call().catch(() => call());
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${answer.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

function api(partner: Partner, method: string, route: string, body?: unknown): Promise<Response> {
  return fetch(`${partner.service.baseUrl}/api${route}`, { method, headers: partner.headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function newOwner(partner: Partner, name: string): Promise<string> {
  const answer = await json<{ property_owner: { owner_slug: string } }>(() =>
    api(partner, "POST", "/partners/property_owners", { external_org_id: `${name}-${Date.now()}`, name }),
  );
  return answer.property_owner.owner_slug;
}

async function newEndpoint(partner: Partner, slug: string, url: string, events = ["prospect.created"]): Promise<string> {
  const answer = await json<{ endpoint: { id: string } }>(() =>
    api(partner, "POST", `/partners/${slug}/webhooks/endpoints`, { endpoint: { name: "isolation", destination_url: url, events } }),
  );
  return answer.endpoint.id;
}

async function setEndpointStatus(partner: Partner, slug: string, id: string, status: "active" | "disabled"): Promise<void> {
  await (await api(partner, "PUT", `/partners/${slug}/webhooks/endpoints/${id}`, { endpoint: { status } })).arrayBuffer();
}

function createProspect(partner: Partner, slug: string, id: string): Promise<Response> {
  return api(partner, "POST", `/partners/${slug}/prospects`, {
    prospect: { source: partner.source, source_prospect_id: id, terms_accepted_at: "2026-11-01T10:00:00Z", email: `${id}@example.com` },
  });
}

type DelayResult = { label: string; created: number; arrived: number; missing: number; duplicates: number; p50: number; p99: number; postP99: number };

/**
 * One delay phase: A creates prospects at 10/s for PHASE_SECONDS while `noise` runs; the delay of
 * each from its POST's answer to its delivery's arrival at A's fast receiver.
 */
async function delayPhase(
  label: string,
  partner: Partner,
  a: { slug: string; arrivals: { body: string; at: number; delivery: string }[] },
  noise?: (seconds: number) => Promise<unknown>,
): Promise<DelayResult> {
  const prefix = `a-${label.replace(/\W+/g, "")}-${Date.now()}`;
  const answeredAt = new Map<string, number>();
  const postTimes: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  const seen = a.arrivals.length;
  const noisy = noise?.(PHASE_SECONDS);
  await paced(10, PHASE_SECONDS, async (i) => {
    const id = `${prefix}-${i}`;
    const started = Date.now();
    const answer = await createProspect(partner, a.slug, id);
    if (answer.ok) await answer.arrayBuffer();
    if (answer.ok) {
      answeredAt.set(id, Date.now());
      postTimes.push(Date.now() - started);
    } else {
      failed++;
      firstFailure ??= `${answer.status} ${(await answer.text()).slice(0, 200)}`;
    }
  });
  if (firstFailure) say(`  ${label}: ${failed} creations failed, the first with ${firstFailure}`);
  const ids = new RegExp(`"${prefix}-\\d+"`);
  const mine = () => a.arrivals.slice(seen).filter((arrival) => ids.test(arrival.body));
  await until(() => new Set(mine().map((arrival) => arrival.delivery)).size >= answeredAt.size, GRACE_SECONDS * 1000);
  await noisy;
  const firstArrival = new Map<string, number>();
  const deliveries = new Set<string>();
  let duplicates = 0;
  for (const arrival of mine()) {
    if (deliveries.has(arrival.delivery)) duplicates++;
    deliveries.add(arrival.delivery);
    const id = (ids.exec(arrival.body) as RegExpExecArray)[0].slice(1, -1);
    if (!firstArrival.has(id)) firstArrival.set(id, arrival.at);
  }
  const delays = [...firstArrival].map(([id, at]) => at - (answeredAt.get(id) ?? at));
  const t0 = Math.min(...answeredAt.values());
  const worst = [...firstArrival]
    .map(([id, at]) => [at - (answeredAt.get(id) ?? at), ((answeredAt.get(id) ?? at) - t0) / 1000] as const)
    .sort((x, y) => y[0] - x[0])
    .slice(0, 6);
  say(`  ${label}: worst delays ${worst.map(([delay, t]) => `${delay} ms (created at +${t.toFixed(1)} s)`).join(", ")}`);
  return {
    label,
    created: answeredAt.size,
    arrived: firstArrival.size,
    missing: answeredAt.size - firstArrival.size,
    duplicates,
    p50: pct(delays, 50),
    p99: pct(delays, 99),
    postP99: pct(postTimes, 99),
  };
}

function reportDelay(result: DelayResult, baseline?: DelayResult): void {
  const counts = `${result.arrived}/${result.created} arrived within ${GRACE_SECONDS} s of the last creation, missing ${result.missing}, duplicates ${result.duplicates}`;
  say(`  ${result.label.padEnd(44)} delay p50 ${ms(result.p50)}  p99 ${ms(result.p99)}   POST p99 ${ms(result.postP99)}   ${counts}   (${load()})`);
  if (!baseline) return;
  const ratio = result.p99 / baseline.p99;
  const pass = ratio <= 1.5 && result.p99 < 1000 && result.missing === 0;
  say(
    `  ${"".padEnd(44)} p99 ratio to alone ${ratio.toFixed(2)}x (p50 ${(result.p50 / baseline.p50).toFixed(2)}x)   target ≤ 1.5x, < 1 s, none missing: ${pass ? "PASS" : "FAIL"}`,
  );
}

/** The delay parts on one service with its inline worker (the service's defaults, as the issue measured). */
async function delayParts(service: RunningService, tls: { key: string; cert: string }, parts: string[], dataDir: string): Promise<void> {
  const partner: Partner = {
    service,
    headers: { authorization: `Bearer ${await partnerToken(service)}`, "content-type": "application/json" },
    source: service.demo.source,
  };
  const fast = await startBenchReceivers(1, tls);
  const hanging = await startHangingReceivers(100, tls);
  const slow = await startBenchReceivers(1, tls, 9_000);
  const recoveryReceiver = await startBenchReceivers(1, tls);
  const instance = JSON.parse(fs.readFileSync(path.join(dataDir, "postgres.json"), "utf8")) as { url: string; socketUrl?: string };
  const sql = connectPostgres(instance.socketUrl ?? instance.url, { max: 2, onnotice: () => {} });
  try {
    const aSlug = await newOwner(partner, "Isolation A");
    await newEndpoint(partner, aSlug, fast.urls[0]);
    const a = { slug: aSlug, arrivals: fast.arrivals };
    // Warm-up (not counted): the route, the engine and the receiver's connection.
    await paced(10, 3, (i) => createProspect(partner, aSlug, `warm-${Date.now()}-${i}`).then((r) => r.arrayBuffer()));
    await sleep(2000);
    say(`isolation: owner A creates prospects at 10/s for ${PHASE_SECONDS} s through the API; delay = POST answer → arrival at A's fast HTTPS receiver`);
    const alone = await delayPhase("A alone (baseline)", partner, a);
    reportDelay(alone);

    /** Another owner's endpoints receive `perSecond` events a second for the phase; disabled afterwards. */
    const noiseOf = async (name: string, urls: string[], eventsPerSecond: number) => {
      const owners: { slug: string; endpoints: string[] }[] = [];
      // At most 50 endpoints per owner (docs/decisions.md): 100 endpoints take two owners.
      for (let o = 0; o * 50 < urls.length; o++) {
        const slug = await newOwner(partner, `${name} ${o}`);
        const endpoints: string[] = [];
        for (const url of urls.slice(o * 50, o * 50 + 50)) endpoints.push(await newEndpoint(partner, slug, url));
        owners.push({ slug, endpoints });
      }
      const run = async (seconds: number) => {
        await Promise.all(
          owners.map((owner, o) =>
            paced(eventsPerSecond, seconds, (i) =>
              createProspect(partner, owner.slug, `${name.replace(/\W+/g, "")}-${o}-${Date.now()}-${i}`).then((r) => r.arrayBuffer()),
            ),
          ),
        );
      };
      const stop = async () => {
        for (const owner of owners) for (const id of owner.endpoints) await setEndpointStatus(partner, owner.slug, id, "disabled");
      };
      return { run, stop };
    };
    const settle = async () => {
      // What the noise left behind: waiting attempts cut, then a moment for A's engine to be idle again.
      hanging.cut();
      await sleep(3000);
    };

    if (parts.includes("hanging")) {
      const noise = await noiseOf("B hanging", hanging.urls.slice(0, 1), 10);
      const before = hanging.requests();
      const result = await delayPhase("beside 1 hanging endpoint (B, 10 events/s)", partner, a, noise.run);
      reportDelay(result, alone);
      say(`  ${"".padEnd(44)} B's hanging receiver got ${hanging.requests() - before} requests`);
      await noise.stop();
      await settle();
    }
    if (parts.includes("hanging100")) {
      const noise = await noiseOf("C hanging100", hanging.urls, 1);
      const before = hanging.requests();
      const result = await delayPhase("beside 100 hanging endpoints (1 event/s each)", partner, a, noise.run);
      reportDelay(result, alone);
      say(`  ${"".padEnd(44)} the hanging receivers got ${hanging.requests() - before} requests`);
      await noise.stop();
      await settle();
    }
    if (parts.includes("fast100")) {
      const fast100 = await startBenchReceivers(100, tls);
      const noise = await noiseOf("F fast100", fast100.urls, 1);
      const result = await delayPhase("beside 100 fast endpoints (control)", partner, a, noise.run);
      reportDelay(result, alone);
      await noise.stop();
      await settle();
      await fast100.close();
    }
    if (parts.includes("slow")) {
      const noise = await noiseOf("D slow", slow.urls, 10);
      const before = slow.arrivals.length;
      const result = await delayPhase("beside 1 slow endpoint (9 s, 10 events/s)", partner, a, noise.run);
      reportDelay(result, alone);
      say(`  ${"".padEnd(44)} the slow receiver got ${slow.arrivals.length - before} requests`);
      await noise.stop();
      await settle();
    }
    if (parts.includes("recovery")) {
      const slug = await newOwner(partner, "R recovery");
      const endpoint = await newEndpoint(partner, slug, recoveryReceiver.urls[0], ["prospect.ready"]);
      const [{ id: ownerId }] = await sql<{ id: number }[]>`select id from property_owners where slug = ${slug}`;
      const since = new Date(Date.now() - 3_600_000).toISOString();
      const made = performance.now();
      // 100,000 deliveries whose attempts were exhausted during an outage of R's receiver.
      await sql`
        with ev as (
          insert into webhook_events (owner_id, event, body, source_prospect_id, created_at)
          select ${ownerId}, 'prospect.ready',
            json_build_object('event', 'prospect.ready', 'property_owner_slug', ${slug}::text, 'data', json_build_object('third_party_prospect', json_build_object('id', 'r-' || g)))::text,
            'r-' || g, now() - interval '30 minutes'
          from generate_series(1, ${RECOVERY_DELIVERIES}) g
          returning id, created_at
        )
        insert into webhook_deliveries (id, event_id, endpoint_id, owner_id, event, status, attempt_number, last_attempted_at,
                                        last_attempt_failure_reason, created_at)
        select 'wd_' || replace(gen_random_uuid()::text, '-', ''), id, ${endpoint}, ${ownerId}, 'prospect.ready', 'failed', 25, created_at,
          'HTTP 503', created_at from ev`;
      // An outage's failures pile up over hours, and autovacuum has long seen them when the partner
      // recovers: made here in seconds, they are vacuumed and analyzed before the phase, not by an
      // autovacuum worker in the middle of it. The retry's own rewrite of the 100,000 is measured.
      await sql`vacuum (analyze) webhook_deliveries, webhook_events`;
      const madeSeconds = (performance.now() - made) / 1000;
      const recovery = await json<{ matched: number }>(() =>
        api(partner, "POST", `/partners/${slug}/webhooks/endpoints/${endpoint}/deliveries/retry`, { status: "failed", since }),
      );
      say(
        `  recovery: ${RECOVERY_DELIVERIES.toLocaleString("en-US")} failed deliveries made in ${madeSeconds.toFixed(1)} s; retry route matched ${recovery.matched.toLocaleString("en-US")}`,
      );
      const before = recoveryReceiver.arrivals.length;
      const phaseStart = Date.now();
      let retried: number | undefined;
      // When the retry job has made every delivery due again (its row done).
      const watch = (async () => {
        while (retried === undefined && Date.now() - phaseStart < 60_000) {
          const [row] = await sql<{ done: boolean }[]>`
            select status = 'done' as done from bulk_retries where filter->>'endpoint_id' = ${endpoint} order by id desc limit 1`;
          if (row?.done) retried = (Date.now() - phaseStart) / 1000;
          else await sleep(250);
        }
      })();
      const result = await delayPhase("during R's 100,000-delivery recovery", partner, a);
      await watch;
      reportDelay(result, alone);
      const rAt = recoveryReceiver.arrivals.slice(before).map((arrival) => (arrival.at - phaseStart) / 1000);
      const rAtText = [1, 100, 500, 1000].map((k) => (rAt[k - 1] === undefined ? `#${k} —` : `#${k} +${rAt[k - 1].toFixed(1)} s`)).join(", ");
      say(`  ${"".padEnd(44)} the retry job made all 100,000 due by +${retried?.toFixed(1) ?? "—"} s; R's arrivals ${rAtText}`);
      const statuses = await sql<{ status: string; n: number }[]>`
        select status, count(*)::int as n from webhook_deliveries where endpoint_id = ${endpoint} group by status order by status`;
      say(
        `  ${"".padEnd(44)} R's receiver got ${recoveryReceiver.arrivals.length - before} meanwhile; R's deliveries now ${statuses.map((s) => `${s.status} ${s.n}`).join(", ")}`,
      );
      await setEndpointStatus(partner, slug, endpoint, "disabled");
    }
  } finally {
    await sql.end();
    await Promise.all([fast.close(), hanging.close(), slow.close(), recoveryReceiver.close()]);
  }
}

/** Runs the operator CLI of the checkout at `cwd` against the service's data directory; its JSON answer. */
function admin(cwd: string, dataDir: string, args: string[]): Record<string, unknown> {
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
    cwd,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`admin ${args.join(" ")}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

type Timed = { p50: number; p99: number; perSecond: number; errors: number; limited: number; requests: number };

/** `concurrency` callers sending back to back until `stop()` is true (or `total` are sent). */
async function closedLoop(concurrency: number, send: (i: number) => Promise<Response>, stop: (sent: number) => boolean): Promise<Timed> {
  const times: number[] = [];
  let next = 0;
  let errors = 0;
  let limited = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!stop(next)) {
        const i = next++;
        const t0 = performance.now();
        try {
          const answer = await send(i);
          await answer.arrayBuffer();
          if (answer.status === 429) limited++;
          else if (!answer.ok) errors++;
        } catch {
          errors++;
        }
        times.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { p50: pct(times, 50), p99: pct(times, 99), perSecond: times.length / seconds, errors, limited, requests: times.length };
}

async function pacedTimes(perSecond: number, seconds: number, send: (i: number) => Promise<Response>): Promise<Timed> {
  const times: number[] = [];
  let errors = 0;
  let limited = 0;
  await paced(perSecond, seconds, async (i) => {
    const t0 = performance.now();
    try {
      const answer = await send(i);
      await answer.arrayBuffer();
      if (answer.status === 429) limited++;
      else if (!answer.ok) errors++;
    } catch {
      errors++;
    }
    times.push(performance.now() - t0);
  });
  return { p50: pct(times, 50), p99: pct(times, 99), perSecond, errors, limited, requests: times.length };
}

const timedLine = (label: string, t: Timed) =>
  `  ${label.padEnd(52)} p50 ${ms(t.p50)}  p99 ${ms(t.p99)}  ${t.perSecond.toFixed(0).padStart(5)} req/s  ${t.requests} requests, 429 ${t.limited}, errors ${t.errors}   (${load()})`;

/** Whether the checkout at `cwd` has the per-client Partner API limit (docs/decisions.md, §17). */
const hasRateLimit = (cwd: string) => fs.readFileSync(path.join(cwd, "src", "server", "config.ts"), "utf8").includes("API_RATE_LIMIT_PER_SECOND");
/** Whether it has the per-process fair queue of Partner API requests too (docs/decisions.md, "A fair Partner API"). */
const hasFairQueue = (cwd: string) => fs.readFileSync(path.join(cwd, "src", "server", "config.ts"), "utf8").includes("API_MAX_CONCURRENT");

const UPSERTS = Number(process.env.BENCH_ISOLATION_UPSERTS ?? 1000);

/** The upsert benchmark: `UPSERTS` prospect upserts at concurrency 16 by one client (after 100 unmeasured). */
async function upsertBench(partner: Partner, slug: string, prefix: string): Promise<Timed> {
  await closedLoop(
    16,
    (i) => createProspect(partner, slug, `${prefix}-w${i}`),
    (sent) => sent >= 100,
  );
  return closedLoop(
    16,
    (i) => createProspect(partner, slug, `${prefix}-${i}`),
    (sent) => sent >= UPSERTS,
  );
}

async function apiPart(service: RunningService, cwd: string, dataDir: string, serviceEnv: Record<string, string>): Promise<void> {
  const limited = hasRateLimit(cwd);
  const queued = hasFairQueue(cwd);
  say(
    `isolation api: the Partner API under one client's flood; this build ${limited ? "has the per-client limit (API_RATE_LIMIT_PER_SECOND, default here)" : "has no per-client limit (API_RATE_LIMIT_PER_SECOND absent)"}` +
      `${queued ? ` and the fair queue (API_MAX_CONCURRENT ${process.env.API_MAX_CONCURRENT ?? "default"}, API_MAX_QUEUED_PER_CLIENT ${process.env.API_MAX_QUEUED_PER_CLIENT ?? "default"})` : ", no fair queue"}`,
  );
  const first: Partner = {
    service,
    headers: { authorization: `Bearer ${await partnerToken(service)}`, "content-type": "application/json" },
    source: service.demo.source,
  };
  const made = admin(cwd, dataDir, ["client", "create", "--name", `bench-second-${Date.now()}`]) as {
    client_id: string;
    client_secret: string;
    audience: string;
  };
  const sourceCode = `bsec${Date.now() % 1_000_000}`;
  admin(cwd, dataDir, ["source", "create", "--code", sourceCode, "--client-id", made.client_id]);
  const token = await json<{ access_token: string }>(() =>
    fetch(`${service.baseUrl}/api/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials", client_id: made.client_id, client_secret: made.client_secret, audience: made.audience }),
    }),
  );
  const second: Partner = { service, headers: { authorization: `Bearer ${token.access_token}`, "content-type": "application/json" }, source: sourceCode };
  const firstSlug = await newOwner(first, "Flooding client's owner");
  const secondSlug = await newOwner(second, "Second client's owner");
  const run = Date.now();
  await pacedTimes(10, 2, (i) => createProspect(second, secondSlug, `s-warm-${run}-${i}`));
  const alone = await pacedTimes(10, 15, (i) => createProspect(second, secondSlug, `s-alone-${run}-${i}`));
  say(timedLine("second client alone, 10 upserts/s (baseline)", alone));
  let flooding = true;
  const flood = closedLoop(
    100,
    (i) => createProspect(first, firstSlug, `f-${run}-${i}`),
    () => !flooding,
  );
  await sleep(1000);
  const beside = await pacedTimes(10, 15, (i) => createProspect(second, secondSlug, `s-beside-${run}-${i}`));
  flooding = false;
  const flooded = await flood;
  say(timedLine("second client beside one at concurrency 100", beside));
  say(timedLine("the flooding client (concurrency 100)", flooded));
  const ratio = beside.p99 / alone.p99;
  say(`  second client's p99 ratio beside/alone ${ratio.toFixed(2)}x   target ≤ 2x: ${ratio <= 2 ? "PASS" : "FAIL"}`);
  await sleep(2000);

  const withLimit = await upsertBench(first, firstSlug, `u-with-${run}`);
  say(timedLine(`upsert benchmark, concurrency 16, ${limited ? "with the limit (default)" : "no limit in this build"}`, withLimit));
  if (!limited) return;
  // Without: the same service's code with a limit no client reaches and no fair queue, in a service of its own.
  const without = { ...serviceEnv, API_RATE_LIMIT_PER_SECOND: "1000000", ...(queued ? { API_MAX_CONCURRENT: "0" } : {}) };
  const withoutName = `without (limit 10^9/s${queued ? ", API_MAX_CONCURRENT=0" : ""})`;
  // Each configuration in a service of its own, alternated over rounds: one service's run differs from
  // the next by ±15 % on two cores whatever it runs, so a single pair is mostly that noise; the
  // costs below compare the medians.
  const bare: Timed[] = [];
  const queueOnly: Timed[] = [];
  const withoutRound = async (round: number) => {
    bare.push(await upsertOn(PORT + 2, `bench-isolation-nolimit-${round}`, without, cwd, `u-without-${run}-${round}`));
    say(timedLine(`upsert benchmark, concurrency 16, ${withoutName}, round ${round}`, bare[bare.length - 1]));
  };
  // The fair queue alone (its default slots, the rate limit out of reach): what the queue costs, even where the rate limit refuses.
  const queueRound = async (round: number) => {
    const env = { ...serviceEnv, API_RATE_LIMIT_PER_SECOND: "1000000" };
    queueOnly.push(await upsertOn(PORT + 2, `bench-isolation-queueonly-${round}`, env, cwd, `u-queue-${run}-${round}`));
    say(timedLine(`upsert benchmark, concurrency 16, the fair queue alone (limit 10^9/s), round ${round}`, queueOnly[queueOnly.length - 1]));
  };
  for (let round = 1; round <= API_ROUNDS; round++) {
    // Each first in every other round: neither gains from its place.
    if (!queued) await withoutRound(round);
    else if (round % 2) await withoutRound(round).then(() => queueRound(round));
    else await queueRound(round).then(() => withoutRound(round));
  }
  const bareRate = median(bare.map((timed) => timed.perSecond));
  const cost = 1 - withLimit.perSecond / bareRate;
  say(
    withLimit.limited > 0
      ? `  the limit at its default refused ${withLimit.limited} of the upsert benchmark's requests: its cost is not comparable here (the fair queue alone, below, measures the machinery with the rate out of reach)`
      : `  the limit costs the upsert benchmark ${(cost * 100).toFixed(1)} % of its req/s (against the median ${bareRate.toFixed(0)} req/s without)   target ≤ 5 %: ${cost <= 0.05 ? "PASS" : "FAIL"}`,
  );
  if (!queued) return;
  const queueRate = median(queueOnly.map((timed) => timed.perSecond));
  const queueCost = 1 - queueRate / bareRate;
  say(
    `  the fair queue costs the upsert benchmark ${(queueCost * 100).toFixed(1)} % of its req/s (medians of ${API_ROUNDS} rounds: ${queueRate.toFixed(0)} against ${bareRate.toFixed(0)} req/s)   target ≤ 5 %: ${queueCost <= 0.05 ? "PASS" : "FAIL"}`,
  );
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The upsert benchmark on a service of its own with `env`. */
async function upsertOn(port: number, name: string, env: Record<string, string>, cwd: string, prefix: string): Promise<Timed> {
  const service = await startService(port, name, env, { worker: "inline", cwd });
  try {
    const partner: Partner = {
      service,
      headers: { authorization: `Bearer ${await partnerToken(service)}`, "content-type": "application/json" },
      source: service.demo.source,
    };
    const slug = await newOwner(partner, "Upsert benchmark");
    return await upsertBench(partner, slug, prefix);
  } finally {
    await service.stop();
  }
}

type DrainResult = { label: string; perSecond: number; fromStart: number; unique: number; duplicates: number; missing: number; complete: boolean };

/** The checkout of the baseline commit: BENCH_BASELINE, or a worktree of BENCH_BASELINE_COMMIT made (and installed) once. */
function baselineCheckout(): string {
  if (process.env.BENCH_BASELINE) return path.resolve(process.env.BENCH_BASELINE);
  const commit = process.env.BENCH_BASELINE_COMMIT ?? "79d5b64";
  const dir = path.join(os.tmpdir(), `bench-base-${commit}`);
  if (!fs.existsSync(path.join(dir, "package.json"))) {
    say(`baseline: git worktree add ${dir} ${commit}`);
    const add = spawnSync("git", ["worktree", "add", "--detach", dir, commit], { stdio: "inherit" });
    if (add.status !== 0) throw new Error("git worktree add failed");
  }
  if (!fs.existsSync(path.join(dir, "node_modules", ".package-lock.json"))) {
    say(`baseline: npm ci in ${dir}`);
    const install = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, stdio: "inherit" });
    if (install.status !== 0) throw new Error("npm ci of the baseline failed");
  }
  if (!fs.existsSync(path.join(dir, ".next", "BUILD_ID"))) {
    // The drain uses the Partner API and the worker only: the web pages' build of this checkout serves.
    say(`baseline: copying this checkout's Next.js build into ${dir} (the drain uses no page)`);
    fs.cpSync(path.resolve(".next"), path.join(dir, ".next"), { recursive: true });
  }
  return dir;
}

/**
 * The backlog drain on the checkout at `cwd`: its service with WORKER=off, 50 endpoints on a fast
 * receiver, 900 events emitted by its own emission code (9 transactions of 100), then one worker
 * process of that checkout; deliveries/s from the first arrival to the last, and from the worker's
 * spawn to the last.
 */
async function drainRun(label: string, cwd: string, port: number, env: Record<string, string>, tls: { key: string; cert: string }): Promise<DrainResult> {
  const name = "bench-isolation-drain";
  const service = await startService(port, name, { ...env, SKIP_BUILD: "1" }, { worker: "none", cwd });
  const receivers = await startBenchReceivers(5, tls);
  let worker: ChildProcess | undefined;
  try {
    const partner: Partner = {
      service,
      headers: { authorization: `Bearer ${await partnerToken(service)}`, "content-type": "application/json" },
      source: service.demo.source,
    };
    const slug = await newOwner(partner, "Drain");
    for (let i = 0; i < DRAIN_ENDPOINTS; i++) await newEndpoint(partner, slug, receivers.urls[i % receivers.urls.length]);
    const dataDir = path.join(cwd, ".data", name);
    const instance = JSON.parse(fs.readFileSync(path.join(dataDir, "postgres.json"), "utf8")) as { url: string; socketUrl?: string };
    const sql = connectPostgres(instance.socketUrl ?? instance.url, { max: 1, onnotice: () => {} });
    const [{ id: ownerId }] = await sql<{ id: number }[]>`select id from property_owners where slug = ${slug}`;
    const script = `
      const { getDb, closeDb } = await import("./src/server/db/client.ts");
      const { emitEvents } = await import("./src/features/webhooks/emit.ts");
      const db = await getDb();
      for (let b = 0; b < ${DRAIN_EVENTS / 100}; b++) {
        await db.transaction((tx) => emitEvents(tx, Array.from({ length: 100 }, (_, i) => ({
          ownerId: ${ownerId}, ownerSlug: ${JSON.stringify(slug)}, event: "prospect.created", data: { id: "drain-" + (b * 100 + i) } }))));
      }
      await closeDb();`;
    const emitted = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd,
      env: { ...process.env, ...env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
      encoding: "utf8",
    });
    if (emitted.status !== 0) throw new Error(`emission failed: ${emitted.stderr}`);
    const [{ n: made }] = await sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where owner_id = ${ownerId}`;
    await sql.end();
    const expected = DRAIN_EVENTS * DRAIN_ENDPOINTS;
    if (made !== expected) throw new Error(`expected ${expected} deliveries, ${made} made`);

    const spawned = Date.now();
    worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      cwd,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    });
    const unique = () => new Set(receivers.arrivals.map((arrival) => arrival.delivery)).size;
    const complete = await until(() => unique() >= expected, DRAIN_TIMEOUT_SECONDS * 1000);
    await sleep(2000); // a late duplicate would show up here
    const times = receivers.arrivals.map((arrival) => arrival.at);
    const first = Math.min(...times);
    const last = Math.max(...times);
    const count = unique();
    return {
      label,
      perSecond: count / ((last - first) / 1000),
      fromStart: count / ((last - spawned) / 1000),
      unique: count,
      duplicates: receivers.arrivals.length - count,
      missing: expected - count,
      complete,
    };
  } finally {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((resolve) => worker?.once("exit", resolve));
      worker.kill("SIGTERM");
      await exited;
    }
    await receivers.close();
    await service.stop();
  }
}

function reportDrain(result: DrainResult): void {
  say(
    `  ${result.label.padEnd(44)} ${result.perSecond.toFixed(0).padStart(6)} deliveries/s first→last arrival, ${result.fromStart.toFixed(0).padStart(6)}/s from the worker's spawn; ` +
      `${result.unique} delivered, missing ${result.missing}, duplicated ${result.duplicates}${result.complete ? "" : ` — NOT COMPLETE after ${DRAIN_TIMEOUT_SECONDS} s`}   (${load()})`,
  );
}

export async function isolationBench(args: string[]): Promise<void> {
  const requested = args.length === 0 ? ["delay", "drain", "api"] : args;
  const parts = requested.flatMap((part) => (part === "delay" ? [...DELAY_PARTS] : [part]));
  const known = new Set<string>([...DELAY_PARTS, "drain", "api"]);
  const unknown = parts.filter((part) => !known.has(part));
  if (unknown.length > 0) throw new Error(`unknown isolation part(s): ${unknown.join(", ")} (known: delay, ${[...known].join(", ")})`);
  const tls = createTestCertificates(path.resolve(".data", "bench-tls"));
  const env: Record<string, string> = { WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: "1", NODE_EXTRA_CA_CERTS: tls.ca };
  const began = Date.now();
  // BENCH_CHECKOUT measures another checkout's service (e.g. a branch's worktree), with this checkout's bench.
  const checkout = path.resolve(process.env.BENCH_CHECKOUT ?? process.cwd());
  const checkoutCommit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: checkout, encoding: "utf8" }).stdout.trim();
  say(`isolation: ${parts.join(", ")} — ${load()}; measured checkout ${checkout} at ${checkoutCommit}`);

  const delay = parts.filter((part) => (DELAY_PARTS as readonly string[]).includes(part));
  if (delay.length > 0) {
    const service = await startService(PORT, "bench-isolation", env, { worker: "inline", cwd: checkout });
    try {
      await delayParts(service, tls, delay, path.join(checkout, ".data", "bench-isolation"));
    } finally {
      await service.stop();
    }
  }
  // A service of its own: the delay parts' leftovers (a recovery's backlog) do not weigh on it.
  if (parts.includes("api")) {
    const service = await startService(PORT, "bench-isolation-api", env, { worker: "inline", cwd: checkout });
    try {
      await apiPart(service, checkout, path.join(checkout, ".data", "bench-isolation-api"), env);
    } finally {
      await service.stop();
    }
  }
  if (parts.includes("drain")) {
    say(
      `isolation drain: ${(DRAIN_EVENTS * DRAIN_ENDPOINTS).toLocaleString("en-US")} deliveries to ${DRAIN_ENDPOINTS} endpoints made with WORKER=off, then one worker process (WORKER_CONCURRENCY default); this checkout, then the baseline, back to back`,
    );
    const current = await drainRun(checkout === process.cwd() ? "this checkout" : `checkout ${checkoutCommit} (${checkout})`, checkout, PORT + 1, env, tls);
    reportDrain(current);
    const baseDir = baselineCheckout();
    const baseCommit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: baseDir, encoding: "utf8" }).stdout.trim();
    const base = await drainRun(`baseline ${baseCommit} (${baseDir})`, baseDir, PORT + 1, env, tls);
    reportDrain(base);
    say(
      `  ratio this checkout / baseline ${(current.perSecond / base.perSecond).toFixed(2)}x   target ≥ 5,000 deliveries/s: ${current.perSecond >= 5000 ? "PASS" : "FAIL"}`,
    );
  }
  say(`isolation: done in ${((Date.now() - began) / 1000).toFixed(0)} s`);
}
