import { resetConfig } from "../src/server/config";
import { connectPostgres } from "../src/server/db/url";
import { completeProspectFields } from "../src/test/samples";
import { fmt, load } from "./lib/load";
import { startBenchReceivers } from "./lib/receivers";
import { partnerToken, type RunningService } from "./lib/service";

/** Renters who buy a policy in the timed phase (p50/p99 over 200 purchases). */
const PURCHASES = 200;
/** Prospects whose first page is served in the pages phase. */
const PAGE_PROSPECTS = 50;
const PAGE_REQUESTS = 2000;
const PAGE_WARMUP = 200;
const CONCURRENCY = 16;
/** Purchases are paced (renters pay one at a time, not in a burst): one every this many ms. */
const PURCHASE_SPACING_MS = 100;
const UNITS = 20;

const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** An enrollment URL as the page receives it: path segments after `/enroll` and the query. */
function linkOf(url: string) {
  const parsed = new URL(url);
  const [flow, owner, source, id] = parsed.pathname.split("/").slice(2).map(decodeURIComponent);
  const query = Object.fromEntries(parsed.searchParams);
  return { flow, owner, source, id, ...query };
}

/**
 * The enrollment benchmark: (1) the flow's first page (an enrollment link, server-rendered from
 * the database) served per second against `/healthz` in the same run, same concurrency; (2) over
 * 200 paced purchases, the time from the renter's payment (the flow service's pay step, as the
 * page's server action calls it: card check, simulated charge, the issuing transaction) to
 * `policy.created` and to `policy.documents_updated` received by a local HTTPS receiver, delivered
 * by the service's worker. Targets: created p99 < 1 s, documents p99 < 3 s.
 */
export async function enrollmentBench(service: RunningService, databaseUrl: string, tls: { key: string; cert: string }): Promise<void> {
  process.env.DATABASE_URL = databaseUrl;
  resetConfig();
  const sql = connectPostgres(databaseUrl, { max: 2, onnotice: () => {} });
  const receivers = await startBenchReceivers(1, tls);
  try {
    const token = await partnerToken(service);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${service.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      if (!response.ok) throw new Error(`bench set-up: ${method} ${path} ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };
    const run = Date.now();
    const externalOrgId = `bench-enroll-${run}`;
    const slug = (
      await call<{ property_owner: { owner_slug: string } }>("POST", "/api/partners/property_owners", {
        external_org_id: externalOrgId,
        name: "Enrollment Bench",
      })
    ).property_owner.owner_slug;
    const base = `/api/partners/${slug}`;
    await call("POST", `${base}/bank_accounts`, [{ external_system_id: "ba", display_name: "Main", routing_number: "021000021", account_number: "1234" }]);
    await call("POST", `${base}/properties`, [
      { external_system_id: "b1", building_name: "Bench Lofts", address: { line_one: "1 Bench St", city: "Austin", state: "TX", zip: "78701" } },
    ]);
    await call(
      "POST",
      `${base}/units`,
      Array.from({ length: UNITS }, (_, u) => ({ external_system_id: `u${u}`, property_external_id: "b1", name: String(100 + u) })),
    );
    await call("POST", "/api/partners/property_owners", { external_org_id: externalOrgId, purchase_flow_enabled: true });
    await call("POST", `${base}/webhooks/endpoints`, {
      endpoint: { name: "bench-policies", destination_url: receivers.urls[0], events: ["policy.created", "policy.documents_updated"] },
    });

    const source = service.demo.source;
    const ids = Array.from({ length: PURCHASES + PAGE_PROSPECTS }, (_, i) => `enr-${run}-${i}`);
    let refused = "";
    const pushed = await load(ids.length, 8, async (i) => {
      const response = await fetch(`${service.baseUrl}${base}/prospects`, {
        method: "POST",
        headers,
        body: JSON.stringify({ prospect: { ...completeProspectFields(source, ids[i], "b1", `u${i % UNITS}`), email: `renter-${run}-${i}@example.com` } }),
      });
      if (!response.ok && !refused) refused = `${response.status} ${await response.clone().text()}`;
      return response;
    });
    if (pushed.errors) throw new Error(`bench set-up: ${pushed.errors} prospect POSTs refused, e.g. ${refused}`);
    const urls = new Map<string, string>();
    const ready = await until(async () => {
      const rows = await sql<{ source_prospect_id: string }[]>`
        select p.source_prospect_id from prospects p join property_owners o on o.id = p.owner_id
        where o.slug = ${slug} and p.status = 'ready'`;
      return rows.length === ids.length;
    }, 120_000);
    if (!ready) throw new Error("bench set-up: prospects did not become ready");
    for (const id of ids) {
      const prospect = await call<{ prospect: { enrollment_url: string | null } }>("GET", `${base}/prospects/${source}/${encodeURIComponent(id)}`);
      if (!prospect.prospect.enrollment_url) throw new Error(`bench set-up: ${id} has no enrollment_url`);
      urls.set(id, prospect.prospect.enrollment_url);
    }

    // (1) The first page against /healthz: same requests, concurrency and warm-up.
    const pageUrls = ids.slice(PURCHASES).map((id) => urls.get(id) as string);
    await load(PAGE_WARMUP, CONCURRENCY, () => fetch(`${service.baseUrl}/healthz`));
    const healthz = await load(PAGE_REQUESTS, CONCURRENCY, () => fetch(`${service.baseUrl}/healthz`));
    await load(PAGE_WARMUP, CONCURRENCY, (i) => fetch(pageUrls[i % pageUrls.length]));
    const pages = await load(
      PAGE_REQUESTS,
      CONCURRENCY,
      (i) => fetch(pageUrls[i % pageUrls.length]),
      (r) => r.ok && r.headers.get("content-type")?.startsWith("text/html") === true,
    );
    const sample = await (await fetch(pageUrls[0])).text();
    console.log(`enrollment: first page (details) of ${pageUrls.length} prospects, ${PAGE_REQUESTS} requests, concurrency ${CONCURRENCY}`);
    console.log(`  /healthz      ${fmt(healthz)}`);
    console.log(`  first page    ${fmt(pages)}   (data-step="details" ${sample.includes('data-step="details"') ? "present" : "MISSING"})`);
    console.log(`  ratio first page / healthz: ${(pages.perSecond / healthz.perSecond).toFixed(2)}`);

    // (2) Purchases: details and choice first (underwriting runs in the service's worker), then paced payments.
    const { submitDetails, chooseProduct, loadEnrollment, payEnrollment } = await import("../src/features/enrollment/flow/service");
    const buyers = ids.slice(0, PURCHASES);
    const details = { firstName: "Rita", lastName: "Renter", phone: "5125550123", birthdate: "1990-04-02", acceptDisclosures: true };
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = w; i < buyers.length; i += 8) {
          const link = linkOf(urls.get(buyers[i]) as string);
          const submitted = await submitDetails(link, details);
          if (!submitted.ok) throw new Error(`bench set-up: details refused: ${submitted.message}`);
        }
      }),
    );
    const attempts = new Map<string, string>();
    for (const id of buyers) {
      const link = linkOf(urls.get(id) as string);
      const quoted = await until(async () => {
        const loaded = await loadEnrollment(link);
        return loaded.kind === "view" && loaded.view.step === "choose";
      }, 60_000);
      if (!quoted) throw new Error(`bench set-up: ${id} was not quoted`);
      const chosen = await chooseProduct(link, { productType: "security_deposit_insurance", cadence: "upfront" });
      if (!chosen.ok || chosen.view.step !== "pay") throw new Error(`bench set-up: choice refused for ${id}`);
      attempts.set(id, chosen.view.attempt);
    }

    const paidAt = new Map<string, number>();
    const start = Date.now();
    for (let i = 0; i < buyers.length; i++) {
      const wait = start + i * PURCHASE_SPACING_MS - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const t0 = Date.now();
      const paid = await payEnrollment(linkOf(urls.get(buyers[i]) as string), {
        number: "4242 4242 4242 4242",
        expiry: "12/30",
        cvc: "123",
        postalCode: "78701",
        nameOnCard: "Rita Renter",
        attempt: attempts.get(buyers[i]) as string,
      });
      if (!paid.ok || paid.view.step !== "result") throw new Error(`purchase ${i} failed: ${paid.ok ? paid.view.step : paid.message}`);
      paidAt.set(buyers[i], t0);
    }
    const arrivalsOf = (event: string) =>
      receivers.arrivals
        .filter((a) => a.event === event)
        .map((a) => ({ id: (JSON.parse(a.body).data.insurance_policy?.source_prospect_id ?? "") as string, at: a.at }))
        .filter((a) => paidAt.has(a.id));
    const complete = await until(() => arrivalsOf("policy.documents_updated").length >= PURCHASES && arrivalsOf("policy.created").length >= PURCHASES, 120_000);
    const latencies = (event: string) => {
      const first = new Map<string, number>();
      for (const a of arrivalsOf(event)) if (!first.has(a.id)) first.set(a.id, a.at);
      return [...first].map(([id, at]) => at - (paidAt.get(id) as number));
    };
    const created = latencies("policy.created");
    const documents = latencies("policy.documents_updated");
    console.log(`  ${PURCHASES} purchases paced at one every ${PURCHASE_SPACING_MS} ms${complete ? "" : " — TIMED OUT"}`);
    console.log(
      `    payment → policy.created received           p50 ${pct(created, 50)} ms   p99 ${pct(created, 99)} ms   (target p99 < 1000 ms; ${created.length} received)`,
    );
    console.log(
      `    payment → policy.documents_updated received p50 ${pct(documents, 50)} ms   p99 ${pct(documents, 99)} ms   (target p99 < 3000 ms; ${documents.length} received)`,
    );
    const { closeDb } = await import("../src/server/db/client");
    await closeDb();
  } finally {
    await receivers.close();
    await sql.end();
  }
}
