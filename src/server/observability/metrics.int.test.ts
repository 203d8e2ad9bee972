import type http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webMounts } from "../../composition/gateways";
import { ELIGIBILITY_MAX_ATTEMPTS } from "../../features/prospects/eligibility/retry-schedule";
import { completeProspect, prospectPartner } from "../../features/prospects/prospect-test-helpers";
import { units } from "../../features/roster/roster.table";
import { address } from "../../features/roster/roster-test-helpers";
import { receiversOfThisFile } from "../../test/https-receiver";
import { runAttempt, runDueJobs } from "../../test/jobs";
import { resetConfig } from "../config";
import { getDb } from "../db/client";
import { createFrontServer } from "../http/front-server";
import { createWorkerHealthServer } from "../http/worker-health-server";

/**
 * `GET /metrics` (docs/decisions.md "Hardening: metrics"): scraped from the real front server (a stand-in for
 * Next.js behind it) and the worker's server, parsed by a Prometheus text-format parser, while real
 * partner requests, jobs and webhook deliveries to an HTTPS receiver move the counters.
 */

const receiver = receiversOfThisFile();
const TOKEN = "metrics-test-token-0123456789";

function listen(server: http.Server, port: number): Promise<{ url: string; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const address = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

let front: { url: string; close: () => Promise<void> };
beforeAll(async () => {
  // Next.js's stand-in: pages answer 200.
  front = await listen(
    createFrontServer({
      mounts: webMounts,
      next: async (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<html></html>");
      },
    }),
    5101,
  );
});
afterAll(async () => {
  delete process.env.METRICS_TOKEN;
  resetConfig();
  await front.close();
});

function withToken(token: string | undefined) {
  if (token === undefined) delete process.env.METRICS_TOKEN;
  else process.env.METRICS_TOKEN = token;
  resetConfig();
}

/**
 * The families as parsed, and each series of a histogram under its own name (`x_count`): the parser
 * folds a histogram's label sets into one sample, so its `# TYPE` lines are left out of that second
 * reading.
 */
type Scrape = { text: string; families: Map<string, MetricFamily>; series: Map<string, MetricFamily> };

async function scrape(base = front.url): Promise<Scrape> {
  const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
  const text = await response.text();
  // A histogram's series alternate (`x_bucket`, `x_sum`, `x_count` per label set): merged by name.
  const byName = (parsed: MetricFamily[]) => {
    const families = new Map<string, MetricFamily>();
    for (const family of parsed) {
      const known = families.get(family.name);
      if (known) known.metrics.push(...family.metrics);
      else families.set(family.name, family);
    }
    return families;
  };
  const untyped = text.replace(/^# (TYPE \S+ histogram|HELP .*)$/gm, "");
  return { text, families: byName(parsePrometheusTextFormat(text)), series: byName(parsePrometheusTextFormat(untyped)) };
}

/** A counter's or histogram's count for exactly these labels (0 when absent). */
function sampleOf(scraped: Scrape, name: string, labels: Record<string, string> = {}): number {
  const histogram = scraped.families.get(name)?.type === "HISTOGRAM";
  const family = histogram ? scraped.series.get(`${name}_count`) : scraped.families.get(name);
  const sample = family?.metrics.find((m) => Object.entries(labels).every(([key, value]) => m.labels?.[key] === value));
  return sample ? Number(sample.value) : 0;
}

describe("GET /metrics is guarded (shared decisions §14)", () => {
  it("answers 404 while METRICS_TOKEN is unset, 401 without the header or with a wrong token", async () => {
    withToken(undefined);
    expect((await fetch(`${front.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    withToken(TOKEN);
    const missing = await fetch(`${front.url}/metrics`);
    expect(missing.status).toBe(401);
    const body = await missing.text();
    expect(body).not.toContain("pis_");
    expect((await fetch(`${front.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    expect((await fetch(`${front.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}` } })).status).toBe(401);
    expect((await fetch(`${front.url}/metrics`, { headers: { authorization: `Basic ${TOKEN}` } })).status).toBe(401);
    expect((await fetch(`${front.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });
});

describe("the counters move with real requests, jobs and deliveries", () => {
  it("counts partner requests by route template, jobs by task and outcome, deliveries by outcome, and the queue", { timeout: 60_000 }, async () => {
    withToken(TOKEN);
    const partner = await prospectPartner();
    const good = await receiver(200);
    const bad = await receiver(500);
    const headers = { authorization: `Bearer ${partner.token}`, "content-type": "application/json" };
    for (const hook of [good, bad]) {
      const registered = await fetch(`${front.url}${partner.base}/webhooks/endpoints`, {
        method: "POST",
        headers,
        body: JSON.stringify({ endpoint: { name: "hook", destination_url: hook.url, events: ["prospect.created", "prospect.ready"] } }),
      });
      expect(registered.status).toBe(201);
    }
    await runDueJobs(); // anything the set-up queued
    const before = await scrape();

    const sourceProspectId = "metrics-p1";
    const created = await fetch(`${front.url}${partner.base}/prospects`, {
      method: "POST",
      headers,
      body: JSON.stringify({ prospect: completeProspect(partner.source, sourceProspectId) }),
    });
    expect(created.status).toBe(200);
    const prospect = ((await created.json()) as { prospect: { id: number; status: string } }).prospect;
    expect(prospect.status).toBe("processing");
    expect((await fetch(`${front.url}${partner.base}/prospects/${partner.source}/${sourceProspectId}`, { headers })).status).toBe(200);
    expect((await fetch(`${front.url}${partner.base}/no-such-route/${sourceProspectId}`, { headers })).status).toBe(404);
    expect((await fetch(`${front.url}/console/owners/${partner.owner.slug}`)).status).toBe(200);
    expect((await fetch(`${front.url}/enroll/${sourceProspectId}-token`)).status).toBe(200);
    expect((await fetch(`${front.url}/${partner.owner.slug}`)).status).toBe(200);

    const queued = await scrape();
    expect(sampleOf(queued, "pis_job_queue_ready")).toBeGreaterThanOrEqual(2); // eligibility, prospect.created deliveries
    expect(sampleOf(queued, "pis_job_queue_oldest_ready_seconds")).toBeGreaterThanOrEqual(0);

    await runDueJobs(); // eligibility, then the deliveries it and the create caused
    await runDueJobs();
    expect(good.received.map((r) => r.headers["x-webhook-event"]).sort()).toEqual(["prospect.created", "prospect.ready"]);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) => sampleOf(after, name, labels) - sampleOf(before, name, labels);

    expect(moved("pis_http_requests_total", { route: "/api/partners/{owner_slug}/prospects", method: "POST", status: "200" })).toBe(1);
    expect(moved("pis_http_request_duration_seconds", { route: "/api/partners/{owner_slug}/prospects", method: "POST", status: "200" })).toBe(1);
    expect(
      moved("pis_http_requests_total", { route: "/api/partners/{owner_slug}/prospects/{source}/{source_prospect_id}", method: "GET", status: "200" }),
    ).toBe(1);
    expect(moved("pis_http_requests_total", { route: "unmatched", method: "GET", status: "404" })).toBe(1);
    expect(moved("pis_http_requests_total", { route: "/console", method: "GET", status: "200" })).toBe(1);
    expect(moved("pis_http_requests_total", { route: "/enroll", method: "GET", status: "200" })).toBe(1);
    expect(moved("pis_http_requests_total", { route: "unmatched", method: "GET", status: "200" })).toBe(1);
    expect(moved("pis_http_requests_total", { route: "/metrics", method: "GET", status: "200" })).toBe(2);

    expect(moved("pis_jobs_total", { task: "prospect__check_eligibility", outcome: "success" })).toBe(1);
    expect(moved("pis_job_duration_seconds", { task: "prospect__check_eligibility", outcome: "success" })).toBe(1);
    expect(moved("pis_jobs_total", { task: "webhook_delivery__attempt", outcome: "success" })).toBeGreaterThanOrEqual(1);
    expect(moved("pis_prospect_eligibility_seconds")).toBe(1);

    expect(moved("pis_webhook_deliveries_total", { outcome: "delivered" })).toBe(2);
    expect(moved("pis_webhook_deliveries_total", { outcome: "retrying" })).toBe(2);
    expect(moved("pis_webhook_attempt_duration_seconds")).toBe(4);
    expect(moved("pis_webhook_first_attempt_delay_seconds")).toBe(4);
    expect(sampleOf(after, "pis_job_queue_ready")).toBe(0); // the retries wait for their time

    const pool = after.families.get("pis_db_pool_connections")?.metrics ?? [];
    expect(pool.map((m) => m.labels?.state).sort()).toEqual(["idle", "in_use", "waiting"]);
    expect(pool.reduce((sum, m) => sum + Number(m.value), 0)).toBeGreaterThanOrEqual(1);
    expect(sampleOf(after, "pis_db_pool_max_connections")).toBeGreaterThanOrEqual(1);
    // prom-client's process defaults
    expect(after.families.has("process_cpu_user_seconds_total")).toBe(true);
    expect(after.families.has("nodejs_eventloop_lag_seconds")).toBe(true);

    // Never a slug, an id or a path as sent.
    for (const raw of [partner.owner.slug, sourceProspectId, partner.source, partner.client.clientId, "no-such-route"]) {
      expect(after.text).not.toContain(raw);
    }
    const routes = new Set([...after.series.values()].flatMap((family) => family.metrics.flatMap((m) => (m.labels?.route ? [m.labels.route] : []))));
    for (const route of routes) {
      expect(route).toMatch(/^(unmatched|\/([a-z_.]+|\{[a-z_]+\})?(\/([a-z_.]+|\{[a-z_]+\}))*)$/);
      expect(route.split("/")).not.toContain(String(prospect.id));
    }
  });

  it("counts a job that throws as error while it will be retried, and as failed on its last attempt", { timeout: 60_000 }, async () => {
    withToken(TOKEN);
    const { post, source, base, token } = await prospectPartner();
    const call = (path: string, body: unknown) =>
      fetch(`${front.url}${base}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    await call("/properties", [
      { external_system_id: "b-pms", building_name: "Synced", address: address("40 Elm St"), pms_type: "pms_one", pms_property_id: "PP-M" },
    ]);
    await call("/units", [{ external_system_id: "u-m", property_external_id: "b-pms", name: "1", pms_unit_id: "PU-M" }]);
    // A coverage rule the API would refuse, stored anyway: evaluation throws (eligibility-error.int.test.ts).
    await (await getDb())
      .update(units)
      .set({ defaultCoverage: { type: "multiplier", value: "one and a half" as unknown as number } })
      .where(eq(units.externalSystemId, "u-m"));
    const pms = { property: undefined, unit: undefined, pms_type: "pms_one", pms_property_id: "PP-M", pms_unit_id: "PU-M" };
    const { id } = (await post(completeProspect(source, "metrics-err", pms))).body.prospect;
    const task = "prospect__check_eligibility";
    const before = await scrape();
    for (let attempt = 1; attempt <= ELIGIBILITY_MAX_ATTEMPTS; attempt++) await runAttempt(task, `prospect-eligibility:${id}`, attempt);
    const after = await scrape();
    const moved = (outcome: string) => sampleOf(after, "pis_jobs_total", { task, outcome }) - sampleOf(before, "pis_jobs_total", { task, outcome });
    expect([moved("error"), moved("failed"), moved("success")]).toEqual([ELIGIBILITY_MAX_ATTEMPTS - 1, 1, 0]);
    expect(sampleOf(after, "pis_job_duration_seconds", { task, outcome: "failed" })).toBeGreaterThanOrEqual(1);
  });

  it("the worker's own server answers the same on WORKER_HEALTH_PORT", async () => {
    withToken(TOKEN);
    const server = createWorkerHealthServer();
    await server.listen(5102);
    try {
      const worker = await scrape("http://127.0.0.1:5102");
      expect(worker.families.has("pis_jobs_total")).toBe(true);
      expect(worker.families.has("process_resident_memory_bytes")).toBe(true);
      expect((await fetch("http://127.0.0.1:5102/metrics", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
      withToken(undefined);
      expect((await fetch("http://127.0.0.1:5102/metrics")).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
