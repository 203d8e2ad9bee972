import path from "node:path";
import { connectPostgres } from "../../src/server/db/url";
import { createTestCertificates } from "../../src/test/tls";
import { startBenchReceivers } from "../lib/receivers";
import { startCluster } from "./cluster";
import { deliveryLedger, emitBurst, ownerWithEndpoints, partnerClient, type Sample, sleep, until } from "./traffic";

const BURST_EVENTS = 200;
const BURST_ENDPOINTS = 10;
/** The receiver answers after this long, so that attempts are in flight when the worker dies. */
const RECEIVER_DELAY_MS = 50;

/**
 * `npm run bench -- faults-worker-kill`: a burst of 2,000 deliveries to 10 endpoints, two workers
 * delivering; once a quarter has arrived, one worker is SIGKILLed. Prints the deliveries in
 * `delivering` (attempts in flight, whichever worker holds them) at the kill, the time from the kill until every delivery has
 * arrived against the stale-lock window (WORKER_STALE_LOCK_SECONDS, the webhook lease), and the
 * deliveries expected, delivered, missing and duplicated.
 */
export async function workerKillScenario(): Promise<void> {
  const tls = createTestCertificates(path.resolve(".data", "faults-tls"));
  const receivers = await startBenchReceivers(2, tls, RECEIVER_DELAY_MS);
  const cluster = await startCluster("faults-worker-kill", 5430, { NODE_EXTRA_CA_CERTS: tls.ca });
  const sql = connectPostgres(cluster.databaseUrl, { max: 2, onnotice: () => {} });
  const samples: Sample[] = [];
  try {
    const client = await partnerClient(cluster, samples);
    const endpoints = Array.from({ length: BURST_ENDPOINTS }, (_, i) => ({ url: receivers.urls[i % 2], events: ["delinquency.created"] }));
    const owner = await ownerWithEndpoints(client, "faults-worker-kill", 1, endpoints);
    const expected = BURST_EVENTS * BURST_ENDPOINTS;
    const burstAt = Date.now();
    await emitBurst(sql, owner.slug, "kill-burst", BURST_EVENTS);
    await until(() => receivers.arrivals.length >= expected / 4, 120_000, 20);
    const victim = cluster.workers[1];
    const killAt = Date.now();
    process.kill(victim.pid, "SIGKILL");
    // The attempts in flight at the kill: the dispatchers' claimed deliveries (docs/decisions.md,
    // "Delivery engine: a dispatcher per worker"), both workers' (a delivery names no worker).
    const inFlight = await sql<{ id: string }[]>`
      select id from webhook_deliveries
      where owner_id = (select id from property_owners where slug = ${owner.slug}) and status = 'delivering'`;
    const delivering = inFlight.length;
    const arrivedAtKill = receivers.arrivals.length;
    const complete = await until(() => new Set(receivers.arrivals.map((a) => a.delivery)).size >= expected, 300_000, 100);
    const allAt = Date.now();
    await sleep(5_000); // a late duplicate would show up here
    const ledger = await deliveryLedger(sql, [owner.slug], receivers.arrivals);
    const lastArrival = Math.max(...receivers.arrivals.map((a) => a.at));
    console.log(
      `faults-worker-kill: ${expected} deliveries (${BURST_EVENTS} events x ${BURST_ENDPOINTS} endpoints), two workers, receiver answering after ${RECEIVER_DELAY_MS} ms`,
    );
    console.log(`  SIGKILL of ${victim.name} (pid ${victim.pid}) ${((killAt - burstAt) / 1000).toFixed(1)} s after the burst, at ${arrivedAtKill} arrivals`);
    const inFlightIds = new Set(inFlight.map((row) => row.id));
    const duplicatesInFlight = ledger.duplicateIds.filter((id) => inFlightIds.has(id)).length;
    console.log(`  deliveries in 'delivering' at the kill (claimed, outcome not yet recorded, both workers): ${delivering}`);
    console.log(
      `  duplicates ${ledger.duplicates}: ${duplicatesInFlight} of them in flight at the kill: ${duplicatesInFlight === new Set(ledger.duplicateIds).size ? "only attempts in flight at the kill" : "NOT only attempts in flight"}`,
    );
    console.log(
      `  every delivery arrived ${complete ? `${((allAt - killAt) / 1000).toFixed(1)} s after the kill` : "— TIMED OUT"} (last arrival ${((lastArrival - killAt) / 1000).toFixed(1)} s after); stale-lock window ${cluster.env.WORKER_STALE_LOCK_SECONDS ?? 60} s, webhook lease ${cluster.env.WEBHOOK_LEASE_SECONDS ?? 30} s`,
    );
    console.log(
      `  deliveries expected ${ledger.expected}, delivered ${ledger.delivered}, missing ${ledger.missing}, duplicates ${ledger.duplicates} (by status ${JSON.stringify(ledger.byStatus)})`,
    );
  } finally {
    await sql.end({ timeout: 5 });
    await cluster.stop();
    await receivers.close();
  }
}
