import type postgres from "postgres";
import { getConfig, resetConfig } from "../src/server/config";
import { connectPostgres } from "../src/server/db/url";
import { completeProspectFields } from "../src/test/samples";
import { cpuMsOf, listenerPid } from "./lib/cpu";
import { fmt, type LoadResult, load } from "./lib/load";
import { type FloorOwner, floorUpsert } from "./lib/prospect-floor";
import { startBenchReceivers } from "./lib/receivers";
import { partnerToken, type RunningService } from "./lib/service";

const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

/** Readiness polling interval per prospect: 25 clients polling every 10 ms loaded the 2-core machine. */
const POLL_MS = 25;
/** Each throughput phase: the same requests, concurrency and warm-up (not measured). */
const TOTAL = 2000;
const WARMUP = 200;
const CONCURRENCY = 16;
/**
 * Prospects are spread over this many owners, each with one endpoint (per phase) subscribed to
 * prospect.created and prospect.ready: (200 + 2000) / 5 × 2 = 880 deliveries per endpoint, under the
 * specification's 1000 a minute, so every delivery is attempted for real and none is left
 * rate-limited to come back during a later phase.
 */
const OWNERS = 5;

/**
 * Background work (eligibility jobs, deliveries) due now has finished: waits for it so that each
 * phase is measured on its own, and returns how long that took. Recurring maintenance jobs and jobs
 * that have given up are not waited for.
 */
async function drained(sql: postgres.Sql): Promise<number> {
  const started = Date.now();
  for (;;) {
    const [{ due }] = await sql<{ due: number }[]>`
      select count(*)::int as due from graphile_worker.jobs
      where run_at <= now() and attempts < max_attempts and task_identifier <> 'webhook_delivery__reap'`;
    if (due === 0) return Date.now() - started;
    if (Date.now() - started > 300_000) throw new Error(`background work did not drain: ${due} jobs due`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * CPU milliseconds per measured request, its background work included (load + drain): of the web
 * process (which also runs the inline worker) and of this process (the in-process transaction, or
 * the HTTP client). Unlike requests a second, these do not move with the machine's other load.
 */
type CpuPerRequest = { web?: number; bench: number };
type Phase = { result: LoadResult; drainMs: number; rows: string; cpu: CpuPerRequest };

/**
 * The prospects benchmark (docs/decisions.md, Performance and caches): the prospect upsert through the API, the same domain transaction
 * called in-process, and a hand-written one-statement version of the same writes (the floor,
 * bench/lib/prospect-floor.ts), with the same concurrency, requests, warm-up and data (complete
 * prospects naming a known building and unit, over 5 owners each with a subscribed endpoint).
 * Every phase's eligibility jobs and deliveries run in the service while it is measured, and are
 * drained before the next phase; each phase then reports the rows it wrote, so that the phases are
 * seen to do the same work. Then, over 500 prospects, the time from a complete POST to `ready` on
 * GET and to the `prospect.ready` delivery at a local HTTPS receiver.
 */
export async function prospectsBench(service: RunningService, databaseUrl: string, tls: { key: string; cert: string }): Promise<void> {
  // Before anything reads the service's config (the floor seals SSNs with the service's keys).
  process.env.DATABASE_URL = databaseUrl;
  resetConfig();
  const sql = connectPostgres(databaseUrl, { max: 2, onnotice: () => {} });
  // The floor's pool is the size of the service's (DB_POOL_SIZE).
  const floorSql = connectPostgres(databaseUrl, { max: getConfig().dbPoolSize, onnotice: () => {} });
  const receivers = await startBenchReceivers(2, tls);
  try {
    const token = await partnerToken(service);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const send = (method: string, path: string, body?: unknown) =>
      fetch(`${service.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const post = (path: string, body: unknown) => send("POST", path, body);
    const json = async <T>(answer: Promise<Response>): Promise<T> => {
      const response = await answer;
      if (!response.ok) throw new Error(`bench set-up: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };
    const webPid = listenerPid(Number(new URL(service.baseUrl).port));
    const run = Date.now();
    const slugs: string[] = [];
    for (let o = 0; o < OWNERS; o++) {
      const externalOrgId = `bench-prospects-${run}-${o}`;
      const created = post("/api/partners/property_owners", { external_org_id: externalOrgId, name: `Prospect Bench ${o}` });
      const slug = (await json<{ property_owner: { owner_slug: string } }>(created)).property_owner.owner_slug;
      const base = `/api/partners/${slug}`;
      await json(post(`${base}/bank_accounts`, [{ external_system_id: "ba", display_name: "Main", routing_number: "021000021", account_number: "1234" }]));
      await json(
        post(`${base}/properties`, [
          { external_system_id: "b1", building_name: "Bench", address: { line_one: `${o + 1} Bench St`, city: "Austin", state: "TX", zip: "78701" } },
        ]),
      );
      await json(post(`${base}/units`, [{ external_system_id: "u1", property_external_id: "b1", name: "1" }]));
      await json(post("/api/partners/property_owners", { external_org_id: externalOrgId, purchase_flow_enabled: true }));
      slugs.push(slug);
    }
    const registerEndpoint = async (slug: string, url: string, events: string[]) =>
      (
        await json<{ endpoint: { id: string } }>(
          post(`/api/partners/${slug}/webhooks/endpoints`, { endpoint: { name: `bench-${events.length}`, destination_url: url, events } }),
        )
      ).endpoint.id;
    const source = service.demo.source;
    const clientId = service.demo.client_id;
    const prospect = (id: string) => ({ ...completeProspectFields(source, id), email: `${id}@example.com` });

    /** One phase: fresh endpoints (a fresh rate window each), warm-up, measured load, drain, rows written. */
    const phase = async (prefix: string, upsert: (id: string, owner: number) => Promise<Response>): Promise<Phase> => {
      const endpoints = await Promise.all(slugs.map((slug) => registerEndpoint(slug, receivers.urls[0], ["prospect.created", "prospect.ready"])));
      await load(WARMUP, CONCURRENCY, (i) => upsert(`${prefix}-w${i}`, i % OWNERS));
      await drained(sql);
      const webBefore = cpuMsOf(webPid);
      const benchBefore = process.cpuUsage();
      const result = await load(TOTAL, CONCURRENCY, (i) => upsert(`${prefix}-${i}`, i % OWNERS));
      const drainMs = await drained(sql);
      const benchUsed = process.cpuUsage(benchBefore);
      const webAfter = cpuMsOf(webPid);
      const cpu: CpuPerRequest = {
        web: webBefore === undefined || webAfter === undefined ? undefined : (webAfter - webBefore) / TOTAL,
        bench: (benchUsed.user + benchUsed.system) / 1000 / TOTAL,
      };
      await Promise.all(endpoints.map((id, o) => send("DELETE", `/api/partners/${slugs[o]}/webhooks/endpoints/${id}`).then((r) => r.arrayBuffer())));
      return { result, drainMs, cpu, rows: await rowsWritten(sql, prefix, endpoints) };
    };

    const owners = await sql<FloorOwner[]>`select id, slug from property_owners where slug in ${sql(slugs)}`;
    const ownerOf = (o: number) => owners.find((owner) => owner.slug === slugs[o]) as FloorOwner;
    const [floorSource] = await sql<{ id: number; code: string }[]>`select id, code from sources where code = ${source} and client_id = ${clientId}`;
    const floor = await phase("floor", async (id, o) => {
      await floorUpsert(floorSql, ownerOf(o), floorSource, prospect(id));
      return new Response(null, { status: 200 });
    });

    // The API's own transaction (the service's upsert: lock, reads, insert, eligibility job, event)
    // through the service's database client, called directly: everything but HTTP, authentication
    // and validation (inputs are parsed before the clock starts).
    const { closeDb, getDb } = await import("../src/server/db/client");
    const { sourceForClient, upsertProspect } = await import("../src/features/prospects/service");
    const { enterOwnerWrite } = await import("../src/features/owners/merge/gate");
    const { prospectFields } = await import("../src/features/prospects/schemas");
    const { propertyOwners } = await import("../src/features/owners/owners.table");
    const { inArray } = await import("drizzle-orm");
    const db = await getDb();
    const ownerRows = await db.select().from(propertyOwners).where(inArray(propertyOwners.slug, slugs));
    const ownerRow = (o: number) => ownerRows.find((owner) => owner.slug === slugs[o]) as (typeof ownerRows)[number];
    const parsed = new Map<string, ReturnType<typeof prospectFields.parse>>();
    for (let i = 0; i < TOTAL + WARMUP; i++) {
      const id = i < WARMUP ? `tx-w${i}` : `tx-${i - WARMUP}`;
      parsed.set(id, prospectFields.parse(prospect(id)));
    }
    const inProcess = await phase("tx", async (id, o) => {
      const fields = parsed.get(id) as ReturnType<typeof prospectFields.parse>;
      await db.transaction(async (tx) => {
        // The API's transaction enters the owner's merge gate first (owners/merge/gate.ts): so does this one.
        const owner = { ...ownerRow(o) };
        await enterOwnerWrite(tx, owner);
        return upsertProspect(tx, { owner, clientId, source: await sourceForClient(tx, source, clientId), fields });
      });
      return new Response(null, { status: 200 });
    });
    await closeDb();

    const api = await phase("api", (id, o) => post(`/api/partners/${slugs[o]}/prospects`, { prospect: prospect(id) }));
    // The idempotency check's cost (docs/decisions.md, "Partner developer: idempotency keys"): the same
    // upsert with a fresh `Idempotency-Key` on each request, in ABBA order against drift of the machine.
    const keyed = (prefix: string) =>
      phase(prefix, (id, o) =>
        fetch(`${service.baseUrl}/api/partners/${slugs[o]}/prospects`, {
          method: "POST",
          headers: { ...headers, "idempotency-key": `${run}-${id}` },
          body: JSON.stringify({ prospect: prospect(id) }),
        }),
      );
    const idem = await keyed("idem");
    const idemAgain = await keyed("idem2");
    const apiAgain = await phase("api2", (id, o) => post(`/api/partners/${slugs[o]}/prospects`, { prospect: prospect(id) }));

    const ratio = (a: Phase, b: Phase) => a.result.perSecond / b.result.perSecond;
    const target = ratio(api, inProcess);
    console.log(`prospects: prospect upsert, ${TOTAL} each after ${WARMUP} unmeasured, concurrency ${CONCURRENCY}, ${OWNERS} owners`);
    console.log(`  floor: one hand-written statement        ${fmt(floor.result)}`);
    console.log(`  the API's transaction, in-process        ${fmt(inProcess.result)}`);
    console.log(`  API: POST /partners/{owner}/prospects    ${fmt(api.result)}`);
    console.log(`  ratio  API / in-process transaction      ${target.toFixed(2)}x   target ≥ 0.50: ${target >= 0.5 ? "PASS" : "FAIL"}`);
    console.log(`  ratio  API / floor                       ${ratio(api, floor).toFixed(2)}x`);
    const perSecond = (phases: Phase[]) => phases.reduce((sum, p) => sum + p.result.perSecond, 0) / phases.length;
    const plain = perSecond([api, apiAgain]);
    const withKey = perSecond([idem, idemAgain]);
    const cost = 1 - withKey / plain;
    console.log(`  API again (ABBA: API, keyed, keyed, API)  ${fmt(apiAgain.result)}`);
    console.log(`  API with Idempotency-Key                 ${fmt(idem.result)}`);
    console.log(`  API with Idempotency-Key, again          ${fmt(idemAgain.result)}`);
    console.log(
      `  Idempotency-Key: ${withKey.toFixed(0)}/s with, ${plain.toFixed(0)}/s without (means of two): ${(cost * 100).toFixed(1)} % slower   target ≤ 10 %: ${cost <= 0.1 ? "PASS" : "FAIL"}`,
    );
    console.log(`  ratio  in-process / floor                ${ratio(inProcess, floor).toFixed(2)}x`);
    console.log(`  background work drained after each phase: floor ${floor.drainMs} ms, in-process ${inProcess.drainMs} ms, API ${api.drainMs} ms`);
    const cpuOf = (p: Phase) => `web ${p.cpu.web === undefined ? "n/a" : p.cpu.web.toFixed(2)} ms, bench ${p.cpu.bench.toFixed(2)} ms`;
    console.log(`  CPU per request (load + drain; web = the service's web process, its inline worker included when it has one; bench = this process):`);
    console.log(`    floor ${cpuOf(floor)}   in-process ${cpuOf(inProcess)}   API ${cpuOf(api)}`);
    for (const [name, written] of [
      ["floor", floor],
      ["in-process", inProcess],
      ["API", api],
    ] as const) {
      console.log(`  written (${name})`.padEnd(24) + written.rows);
    }
    if ([floor, inProcess, api, idem, idemAgain, apiAgain].some((p) => p.result.errors)) throw new Error("benchmark requests failed");

    // Readiness: complete POST → ready on GET, and → prospect.ready at the receiver.
    const base = `/api/partners/${slugs[0]}`;
    await registerEndpoint(slugs[0], receivers.urls[1], ["prospect.ready"]);
    const arrivalsBefore = receivers.arrivals.length;
    const readyOnGet: number[] = [];
    const posted = new Map<string, number>();
    for (let round = 0; round < 20; round++) {
      await Promise.all(
        Array.from({ length: 25 }, async (_, j) => {
          const id = `ready-${round}-${j}`;
          const answer = await post(`${base}/prospects`, { prospect: prospect(id) });
          await answer.arrayBuffer();
          const start = Date.now();
          posted.set(id, start);
          for (;;) {
            const got = (await (await fetch(`${service.baseUrl}${base}/prospects/${source}/${id}`, { headers })).json()) as { prospect: { status: string } };
            if (got.prospect.status === "ready") break;
            await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          }
          readyOnGet.push(Date.now() - start);
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const delivered = receivers.arrivals
      .slice(arrivalsBefore)
      .map((a) => {
        const id = JSON.parse(a.body).data.third_party_prospect.source_prospect_id as string;
        return posted.has(id) ? a.at - (posted.get(id) as number) : null;
      })
      .filter((v): v is number => v !== null);
    console.log(
      `  ready on GET            p50 ${pct(readyOnGet, 50)} ms   p99 ${pct(readyOnGet, 99)} ms   (500 prospects, 25 at a time, GET every ${POLL_MS} ms; target p99 < 1000 ms)`,
    );
    console.log(`  prospect.ready delivered p50 ${pct(delivered, 50)} ms   p99 ${pct(delivered, 99)} ms   (${delivered.length} of 500 arrived)`);
  } finally {
    await receivers.close();
    await sql.end();
    await floorSql.end();
  }
}

/** What a phase wrote, warm-up included: its prospects (and how many reached `ready`) and its endpoints' deliveries. */
async function rowsWritten(sql: postgres.Sql, prefix: string, endpoints: string[]): Promise<string> {
  const [prospects] = await sql<{ total: number; ready: number }[]>`
    select count(*)::int as total, (count(*) filter (where status = 'ready'))::int as ready
    from prospects where source_prospect_id like ${`${prefix}-%`}`;
  const [deliveries] = await sql<{ created: number; ready: number; delivered: number }[]>`
    select (count(*) filter (where ev.event = 'prospect.created'))::int as created,
      (count(*) filter (where ev.event = 'prospect.ready'))::int as ready,
      (count(*) filter (where d.status = 'delivered'))::int as delivered
    from webhook_deliveries d join webhook_events ev on ev.id = d.event_id
    where d.endpoint_id in ${sql(endpoints)}`;
  return `prospects ${prospects.total} (${prospects.ready} ready), deliveries: prospect.created ${deliveries.created}, prospect.ready ${deliveries.ready}, ${deliveries.delivered} delivered`;
}
