import path from "node:path";
import { connectPostgres } from "../../src/server/db/url";
import { createTestCertificates } from "../../src/test/tls";
import { startBenchReceivers } from "../lib/receivers";
import { rssMiB, startCluster } from "./cluster";
import { consoleUser } from "./console";
import { deliveryLedger, emitBurst, ownerWithEndpoints, partnerClient, pct, prospectBody, type Sample, sleep, statusCounts, until } from "./traffic";

/** Least-squares slope of `values` over `hours`, per hour. */
export function slopePerHour(hours: number[], values: number[]): number {
  const n = hours.length;
  if (n < 2) return Number.NaN;
  const mx = hours.reduce((a, b) => a + b, 0) / n;
  const my = values.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (hours[i] - mx) * (values[i] - my);
    den += (hours[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/**
 * `npm run bench -- faults-soak [--minutes 30]`: mixed partner traffic against two web processes and
 * two workers on an external PostgreSQL for the given minutes: prospects (new and re-sent), roster
 * batches of 100 units (re-sent, sometimes with new units), deliveries (every prospect's events and
 * a burst of events every 10 s), enrollment pages, reads and console searches (the demo operator
 * signed in through next-auth, searching deliveries, prospects and buildings over tRPC). Every 10 s it samples each process's
 * resident memory and the server's client connections; at the end it prints their least-squares
 * slope per hour and p50/p99 of the first against the last five minutes (a third of the run when
 * shorter than fifteen minutes).
 */
export async function soakScenario(minutes: number): Promise<void> {
  const tls = createTestCertificates(path.resolve(".data", "faults-tls"));
  const receivers = await startBenchReceivers(2, tls);
  const cluster = await startCluster("faults-soak", 5440, { NODE_EXTRA_CA_CERTS: tls.ca });
  const sql = connectPostgres(cluster.databaseUrl, { max: 2, onnotice: () => {} });
  const samples: Sample[] = [];
  try {
    const client = await partnerClient(cluster, samples);
    const prospects = await ownerWithEndpoints(client, "soak-prospects", 40, [{ url: receivers.urls[0], events: ["prospect.created", "prospect.ready"] }]);
    const bursts = await ownerWithEndpoints(client, "soak-bursts", 1, [
      { url: receivers.urls[0], events: ["delinquency.created"] },
      { url: receivers.urls[1], events: ["delinquency.created"] },
    ]);
    // A staff member signed in to the console of each web process (the demo operator).
    const staff = await consoleUser(
      cluster.webs.map((web) => web.baseUrl),
      cluster.demo.console_email,
      cluster.demo.console_password,
      samples,
    );
    const started = Date.now();
    const end = started + minutes * 60_000;
    const running = () => Date.now() < end;
    const every = async (ms: number, step: (i: number) => Promise<void>) => {
      for (let i = 0; running(); i++) {
        const next = started + (i + 1) * ms;
        await step(i);
        const wait = next - Date.now();
        if (wait > 0) await sleep(wait);
      }
    };
    const posted: string[] = [];
    const pageUrls: string[] = [];
    const resources: { at: number; rss: number[]; connections: number }[] = [];
    const procs = () => [cluster.webs[0].proc, cluster.webs[1].proc, ...cluster.workers];
    await Promise.all([
      // Prospects: 4 a second over both web processes, every fourth a re-send of an earlier one.
      every(250, async (i) => {
        const id = i % 4 === 3 && posted.length ? posted[(i * 7) % posted.length] : `soak-${i}`;
        const answer = await client.send(i % 2, "prospect", "POST", `${prospects.base}/prospects`, prospectBody(client.source, id, i % 40));
        if (answer.status >= 200 && answer.status < 300 && !posted.includes(id)) posted.push(id);
      }),
      // Roster: a batch of 100 units every 5 s, the same ones re-sent, every sixth batch 10 new ones.
      every(5_000, async (i) => {
        const extra = Math.floor(i / 6) * 10;
        const units = Array.from({ length: 100 }, (_, u) => ({
          external_system_id: u < 90 || i % 6 !== 0 ? `r${u}` : `r${u}-${extra}`,
          property_external_id: "b1",
          name: `R${u}`,
        }));
        await client.send(i % 2, "roster", "POST", `${bursts.base}/units`, units);
      }),
      // Deliveries: 20 events to two endpoints every 10 s (besides every prospect's own).
      every(10_000, async (i) => {
        await emitBurst(sql, bursts.slug, `soak-burst-${i}`, 20).catch(() => {});
      }),
      // Reads and enrollment pages: two a second each.
      every(500, async (i) => {
        if (posted.length === 0) return;
        const id = posted[(i * 13) % posted.length];
        const read = await client.send(i % 2, "read", "GET", `${prospects.base}/prospects/${client.source}/${encodeURIComponent(id)}`);
        const url = read.status === 200 ? (JSON.parse(read.text) as { prospect: { enrollment_url: string | null } }).prospect.enrollment_url : null;
        if (url && pageUrls.length < 200) pageUrls.push(url);
        if (pageUrls.length) {
          const page = new URL(pageUrls[i % pageUrls.length]);
          const at = Date.now();
          try {
            const response = await fetch(`${cluster.webs[i % 2].baseUrl}${page.pathname}${page.search}`, { signal: AbortSignal.timeout(10_000) });
            await response.arrayBuffer();
            samples.push({ at, web: i % 2, kind: "page", status: response.status, ms: Date.now() - at });
          } catch {
            samples.push({ at, web: i % 2, kind: "page", status: 0, ms: Date.now() - at });
          }
        }
      }),
      // Console searches: one every 2 s over both web processes, as the deliveries, prospects and
      // buildings screens send them (by owner, by status, by text).
      every(2_000, async (i) => {
        const searches: [string, unknown][] = [
          ["webhooks.deliveries.search", { owner: bursts.slug, limit: 50 }],
          ["prospects.search", { owner: prospects.slug, limit: 50 }],
          ["webhooks.deliveries.search", { status: "delivered", limit: 50 }],
          ["buildings.search", { query: "Fault" }],
        ];
        const [procedure, input] = searches[i % searches.length];
        await staff.search(i % 2, procedure, input);
      }),
      // Resources: every 10 s.
      every(10_000, async () => {
        const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where backend_type = 'client backend'`;
        resources.push({ at: Date.now(), rss: procs().map((p) => rssMiB(p.pid)), connections: n });
      }),
    ]);
    await until(async () => (await deliveryLedger(sql, [prospects.slug, bursts.slug], receivers.arrivals)).missing === 0, 120_000, 1000);
    const ledger = await deliveryLedger(sql, [prospects.slug, bursts.slug], receivers.arrivals);

    const windowMs = Math.min(5 * 60_000, (minutes * 60_000) / 3);
    const partner = samples.filter((s) => s.kind !== "setup");
    const first = partner.filter((s) => s.at < started + windowMs);
    const last = partner.filter((s) => s.at >= end - windowMs);
    const hours = resources.map((r) => (r.at - started) / 3_600_000);
    console.log(`faults-soak: ${minutes} min of mixed traffic, two web processes and two workers on an external PostgreSQL`);
    console.log(`  requests ${partner.length} (${statusCounts(partner)})`);
    const windowLabel = `${(windowMs / 60_000).toFixed(1)} min`;
    for (const kind of ["prospect", "roster", "read", "page", "console", "all"]) {
      const of = (list: Sample[]) => list.filter((s) => kind === "all" || s.kind === kind).map((s) => s.ms);
      const a = of(first);
      const b = of(last);
      console.log(
        `  ${kind.padEnd(9)} first ${windowLabel}: p50 ${pct(a, 50)} ms p99 ${pct(a, 99)} ms (${a.length})   last ${windowLabel}: p50 ${pct(b, 50)} ms p99 ${pct(b, 99)} ms (${b.length})   p99 last/first ${(pct(b, 99) / pct(a, 99)).toFixed(2)}`,
      );
    }
    const names = procs().map((p) => p.name);
    for (let p = 0; p < names.length; p++) {
      const values = resources.map((r) => r.rss[p]);
      console.log(
        `  RSS ${names[p].padEnd(9)} start ${values[0]?.toFixed(0)} MiB, end ${values[values.length - 1]?.toFixed(0)} MiB, max ${Math.max(...values).toFixed(0)} MiB, slope ${slopePerHour(hours, values).toFixed(1)} MiB/h`,
      );
    }
    const connections = resources.map((r) => r.connections);
    console.log(
      `  PostgreSQL client connections: start ${connections[0]}, end ${connections[connections.length - 1]}, max ${Math.max(...connections)}, slope ${slopePerHour(hours, connections).toFixed(2)} per hour`,
    );
    console.log(
      `  deliveries expected ${ledger.expected}, delivered ${ledger.delivered}, missing ${ledger.missing}, duplicates ${ledger.duplicates}; prospects ${posted.length}`,
    );
    console.log(`  samples every 10 s: ${resources.length}`);
  } finally {
    await sql.end({ timeout: 5 });
    await cluster.stop();
    await receivers.close();
  }
}
