import path from "node:path";
import { connectPostgres } from "../../src/server/db/url";
import { createTestCertificates } from "../../src/test/tls";
import { startBenchReceivers } from "../lib/receivers";
import { startCluster } from "./cluster";
import {
  deliveryLedger,
  emitBurst,
  ownerWithEndpoints,
  partnerClient,
  prospectBody,
  REQUEST_BOUND_MS,
  type Sample,
  sleep,
  statusCounts,
  until,
} from "./traffic";

const BURST_EVENTS = 200;
const BURST_ENDPOINTS = 10;
const DOWN_SECONDS = 15;

/**
 * `npm run bench -- faults-postgres`: PostgreSQL stopped (fast shutdown) in the middle of a burst of
 * 2,000 deliveries and a paced prospect load over two web processes, kept down 15 s, started again
 * on the same port and data directory. Prints the requests sent while it was down by status with
 * their longest latency, each web process's first 2xx after its return, the deliveries expected,
 * delivered, missing and duplicated, and the prospects answered 2xx against those in the database.
 */
export async function postgresRestartScenario(): Promise<void> {
  const tls = createTestCertificates(path.resolve(".data", "faults-tls"));
  const receivers = await startBenchReceivers(2, tls);
  const cluster = await startCluster("faults-postgres", 5420, { NODE_EXTRA_CA_CERTS: tls.ca });
  const sql = connectPostgres(cluster.databaseUrl, { max: 2, onnotice: () => {} });
  const samples: Sample[] = [];
  try {
    const client = await partnerClient(cluster, samples);
    const endpoints = [
      ...Array.from({ length: BURST_ENDPOINTS }, (_, i) => ({ url: receivers.urls[i % 2], events: ["delinquency.created"] })),
      { url: receivers.urls[0], events: ["prospect.created"] },
    ];
    const owner = await ownerWithEndpoints(client, "faults-postgres", 20, endpoints);
    const answered2xx = new Set<string>();
    let stopLoad = false;
    // Prospects: one every 100 ms, alternating web processes, each bounded (REQUEST_BOUND_MS).
    const prospectLoad = (async () => {
      const inFlight: Promise<void>[] = [];
      for (let i = 0; !stopLoad; i++) {
        const id = `pg-${i}`;
        inFlight.push(
          client.send(i % 2, "prospect", "POST", `${owner.base}/prospects`, prospectBody(client.source, id, i % 20)).then((answer) => {
            if (answer.status >= 200 && answer.status < 300) answered2xx.add(id);
          }),
        );
        await sleep(100);
      }
      await Promise.all(inFlight);
    })();
    // Reads: each web process every 250 ms.
    const readLoad = (async () => {
      const inFlight: Promise<unknown>[] = [];
      for (let i = 0; !stopLoad; i++) {
        inFlight.push(client.send(i % 2, "read", "GET", `${owner.base}/prospects/${client.source}/pg-0`));
        await sleep(125);
      }
      await Promise.all(inFlight);
    })();

    await sleep(5_000);
    const burstStarted = Date.now();
    await emitBurst(sql, owner.slug, "pg-burst", BURST_EVENTS);
    const [{ open }] = await sql<{ open: number }[]>`
      select count(*)::int as open from webhook_deliveries where owner_id = (select id from property_owners where slug = ${owner.slug}) and status <> 'delivered'`;
    const arrivedAtStop = receivers.arrivals.length;
    const downAt = Date.now();
    await cluster.pg.stop();
    const stoppedMs = Date.now() - downAt;
    await sleep(DOWN_SECONDS * 1000 - stoppedMs);
    const restartAt = Date.now();
    await cluster.pg.start();
    const upAt = Date.now();
    await sleep(30_000);
    stopLoad = true;
    await Promise.all([prospectLoad, readLoad]);

    const drained = await until(async () => (await deliveryLedger(sql, [owner.slug], receivers.arrivals)).missing === 0, 240_000, 1000);
    await sleep(2_000); // a late duplicate would show up here
    const ledger = await deliveryLedger(sql, [owner.slug], receivers.arrivals);
    const present = new Set(
      (
        await sql<{ id: string }[]>`
          select p.source_prospect_id as id from prospects p join property_owners o on o.id = p.owner_id where o.slug = ${owner.slug}`
      ).map((row) => row.id),
    );
    const answeredMissing = [...answered2xx].filter((id) => !present.has(id));

    const partner = samples.filter((s) => s.kind !== "setup");
    const during = partner.filter((s) => s.at >= downAt && s.at < upAt);
    const after = partner.filter((s) => s.at >= upAt);
    console.log(`faults-postgres: PostgreSQL down ${((upAt - downAt) / 1000).toFixed(1)} s (fast shutdown took ${stoppedMs} ms, start ${upAt - restartAt} ms)`);
    console.log(
      `  burst: ${BURST_EVENTS} events x ${BURST_ENDPOINTS} endpoints emitted in ${downAt - burstStarted} ms; at the stop ${open} deliveries open, ${arrivedAtStop} arrivals`,
    );
    console.log(`  requests started while down: ${during.length} (${statusCounts(during)}); bound ${REQUEST_BOUND_MS} ms`);
    const fiveHundreds = during.filter((s) => s.status >= 500);
    const bodies = [...new Set(fiveHundreds.map((s) => `${s.status} ${s.body} (Retry-After: ${s.retryAfter ?? "none"})`))];
    console.log(`    max latency while down ${Math.max(0, ...during.map((s) => s.ms))} ms; 5xx answers: ${bodies.slice(0, 4).join(" | ") || "none"}`);
    for (let web = 0; web < 2; web++) {
      const mine = after.filter((s) => s.web === web).sort((a, b) => a.at - b.at);
      const firstOk = mine.find((s) => s.status >= 200 && s.status < 300);
      const lastBad = [...mine].reverse().find((s) => s.status < 200 || s.status >= 300);
      console.log(
        `  web-${web + 1}: first 2xx ${firstOk ? `${((firstOk.at + firstOk.ms - upAt) / 1000).toFixed(2)} s` : "NEVER"} after PostgreSQL returned; last non-2xx ${lastBad ? `${((lastBad.at - upAt) / 1000).toFixed(2)} s after (${lastBad.status})` : "none"}`,
      );
    }
    const firstDeliveryAfter = receivers.arrivals.find((a) => a.at >= upAt);
    console.log(`  first delivery after the return: ${firstDeliveryAfter ? `${((firstDeliveryAfter.at - upAt) / 1000).toFixed(2)} s` : "none"}`);
    console.log(`  requests after the return: ${after.length} (${statusCounts(after)})`);
    console.log(
      `  deliveries expected ${ledger.expected}, delivered ${ledger.delivered}, missing ${ledger.missing}, duplicates ${ledger.duplicates}${drained ? "" : " — TIMED OUT"} (by status ${JSON.stringify(ledger.byStatus)})`,
    );
    console.log(`  prospects answered 2xx ${answered2xx.size}, present in the database ${present.size}, answered 2xx but absent ${answeredMissing.length}`);
    // docs/decisions.md "Operations: recovery from faults": the scenario's checks.
    const servingAt = (web: number) => {
      const lastBad = [...after.filter((s) => s.web === web)]
        .sort((a, b) => a.at - b.at)
        .reverse()
        .find((s) => s.status < 200 || s.status >= 300);
      return lastBad ? lastBad.at + lastBad.ms - upAt : 0;
    };
    const exited = [...cluster.workers, ...cluster.webs.map((w) => w.proc)].filter((p) => p.child.exitCode !== null || p.child.signalCode !== null);
    const checks = {
      // A request the server finished during its fast shutdown answers 2xx; any other answers 503, none hangs.
      "503 within the bound while down":
        during.some((s) => s.status === 503) && during.every((s) => (s.status === 503 || (s.status >= 200 && s.status < 300)) && s.ms < REQUEST_BOUND_MS),
      "every web process serving within 10 s of the return": [0, 1].every((web) => servingAt(web) <= 10_000),
      "a delivery within 10 s of the return": firstDeliveryAfter !== undefined && firstDeliveryAfter.at - upAt <= 10_000,
      "no process of ours exited": exited.length === 0,
      "no delivery lost": ledger.missing === 0,
      "every 2xx prospect exists": answeredMissing.length === 0,
    };
    for (const [check, ok] of Object.entries(checks)) console.log(`  check: ${ok ? "PASS" : "FAIL"} ${check}`);
    if (exited.length) console.log(`  exited: ${exited.map((p) => p.name).join(", ")}`);
  } finally {
    await sql.end({ timeout: 5 });
    await cluster.stop();
    await receivers.close();
  }
}
